// The replica's audit flags, as kube-apiserver 1.28 names, defaults and checks them
// (k8s.io/apiserver pkg/server/options/audit.go): the policy file, the log backend (blocking,
// blocking-strict or batch; rotation, compression), the webhook backend (batch), and each
// backend's batch and truncate options (checked only when their mode or --*-truncate-enabled
// uses them, as kube checks them). The policy and the webhook's kubeconfig are read here: a bad
// file stops the replica at start with one line naming it.
import { dirname } from 'node:path';
import { readFileSync } from 'node:fs';
import { webhookEndpointFromKubeconfig } from '../authn/webhook/kubeconfig.ts';
import type { BatchOptions } from '../audit/buffered-backend.ts';
import { loadPolicyFile, PolicyFileError } from '../audit/policy-file.ts';
import type { AuditLogOptions, AuditOptions, AuditWebhookOptions } from '../audit/start-audit.ts';
import type { TruncateOptions } from '../audit/truncate.ts';
import { parseGoBool } from '../apiserver/query-params.ts';

/** The parseArgs options of the audit flags. */
export const auditFlagOptions = {
  'audit-policy-file': { type: 'string' },
  'audit-log-path': { type: 'string' },
  'audit-log-format': { type: 'string', default: 'json' },
  'audit-log-maxage': { type: 'string', default: '0' },
  'audit-log-maxbackup': { type: 'string', default: '0' },
  'audit-log-maxsize': { type: 'string', default: '0' },
  'audit-log-mode': { type: 'string', default: 'blocking' },
  'audit-log-compress': { type: 'string', default: 'false' },
  'audit-log-batch-buffer-size': { type: 'string', default: '10000' },
  'audit-log-batch-max-size': { type: 'string', default: '1' },
  'audit-log-batch-max-wait': { type: 'string', default: '0s' },
  'audit-log-batch-throttle-enable': { type: 'string', default: 'false' },
  'audit-log-batch-throttle-qps': { type: 'string', default: '0' },
  'audit-log-batch-throttle-burst': { type: 'string', default: '0' },
  'audit-log-truncate-enabled': { type: 'string', default: 'false' },
  'audit-log-truncate-max-batch-size': { type: 'string', default: '10485760' },
  'audit-log-truncate-max-event-size': { type: 'string', default: '102400' },
  'audit-log-version': { type: 'string', default: 'audit.k8s.io/v1' },
  'audit-webhook-config-file': { type: 'string' },
  'audit-webhook-mode': { type: 'string', default: 'batch' },
  'audit-webhook-version': { type: 'string', default: 'audit.k8s.io/v1' },
  /** Default 10s (no parseArgs default: the deprecated spelling below counts only when this is not given). */
  'audit-webhook-initial-backoff': { type: 'string' },
  /** Deprecated in kube for --audit-webhook-initial-backoff; taken with a warning. */
  'audit-webhook-batch-initial-backoff': { type: 'string' },
  'audit-webhook-batch-buffer-size': { type: 'string', default: '10000' },
  'audit-webhook-batch-max-size': { type: 'string', default: '400' },
  'audit-webhook-batch-max-wait': { type: 'string', default: '30s' },
  'audit-webhook-batch-throttle-enable': { type: 'string', default: 'true' },
  'audit-webhook-batch-throttle-qps': { type: 'string', default: '10' },
  'audit-webhook-batch-throttle-burst': { type: 'string', default: '15' },
  'audit-webhook-truncate-enabled': { type: 'string', default: 'false' },
  'audit-webhook-truncate-max-batch-size': { type: 'string', default: '10485760' },
  'audit-webhook-truncate-max-event-size': { type: 'string', default: '102400' },
} as const;

/** The values parseArgs gives for them. */
export type AuditFlagValues = { readonly [flag in keyof typeof auditFlagOptions]?: string | undefined };

const booleanFlags = new Set(['audit-log-compress', 'audit-log-batch-throttle-enable', 'audit-log-truncate-enabled', 'audit-webhook-batch-throttle-enable', 'audit-webhook-truncate-enabled']);

/** A boolean flag alone (`--audit-log-compress`) means true (parseArgs takes only `--flag=value` for a string flag). */
export function normalizeAuditBooleanFlags(argv: readonly string[]): string[] {
  return argv.map((arg) => (arg.startsWith('--') && booleanFlags.has(arg.slice(2)) ? `${arg}=true` : arg));
}

interface Parsing {
  readonly parseDurationMs: (text: string, flag: string) => number;
  readonly makeError: (message: string) => Error;
  readonly warn: (message: string) => void;
}

type Backend = 'log' | 'webhook';
type IntegerFlag = 'audit-log-maxage' | 'audit-log-maxbackup' | 'audit-log-maxsize' | `audit-${Backend}-batch-${'buffer-size' | 'max-size' | 'throttle-burst'}` | `audit-${Backend}-truncate-${'max-batch-size' | 'max-event-size'}`;

/** The flag's integer (any sign); refuses what is not one. */
function anyInteger(values: AuditFlagValues, flag: IntegerFlag, parsing: Parsing): number {
  const text = (values[flag] ?? auditFlagOptions[flag].default).trim();
  const n = /^[-+]?\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(n)) throw parsing.makeError(`--${flag}: "${text}" is not an integer`);
  return n;
}

function integer(values: AuditFlagValues, flag: IntegerFlag, parsing: Parsing, positive: boolean): number {
  const n = anyInteger(values, flag, parsing);
  if (positive && n <= 0) throw parsing.makeError(`--${flag}: ${n} must be a positive number`);
  if (n < 0) throw parsing.makeError(`--${flag}: ${n} can't be a negative number`);
  return n;
}

/** A float32 flag (the throttle's QPS), any sign. */
function float(text: string, flag: string, parsing: Parsing): number {
  const n = /^[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$/.test(text.trim()) ? Number(text) : Number.NaN;
  if (!Number.isFinite(n)) throw parsing.makeError(`--${flag}: "${text}" is not a number`);
  return n;
}

function qps(text: string, parsing: Parsing): number {
  const n = /^\d+(\.\d+)?$/.test(text.trim()) ? Number(text) : Number.NaN;
  if (!(n > 0)) throw parsing.makeError(`--audit-webhook-batch-throttle-qps: "${text}" must be a positive number`);
  return n;
}

function booleanFlag(text: string, flag: string, parsing: Parsing): boolean {
  const value = parseGoBool(text);
  if (value === undefined) throw parsing.makeError(`--${flag}: "${text}" is not true or false`);
  return value;
}

function checkVersion(values: AuditFlagValues, flag: 'audit-log-version' | 'audit-webhook-version', parsing: Parsing): void {
  const version = values[flag] ?? 'audit.k8s.io/v1';
  if (version !== 'audit.k8s.io/v1') throw parsing.makeError(`--${flag}: "${version}" is not supported: the only audit event version is audit.k8s.io/v1`);
}

function logOptions(values: AuditFlagValues, parsing: Parsing): AuditLogOptions | undefined {
  const path = values['audit-log-path'] ?? '';
  const format = values['audit-log-format'] ?? 'json';
  if (format !== 'json' && format !== 'legacy') throw parsing.makeError(`--audit-log-format: invalid audit log format ${format}, allowed formats are "json,legacy"`);
  const mode = values['audit-log-mode'] ?? 'blocking';
  if (mode !== 'batch' && mode !== 'blocking' && mode !== 'blocking-strict') throw parsing.makeError(`--audit-log-mode: invalid audit log mode ${mode}, allowed modes are "batch,blocking,blocking-strict"`);
  checkVersion(values, 'audit-log-version', parsing);
  const maxAgeDays = integer(values, 'audit-log-maxage', parsing, false);
  const maxBackups = integer(values, 'audit-log-maxbackup', parsing, false);
  const maxSizeMegabytes = integer(values, 'audit-log-maxsize', parsing, false);
  const compress = booleanFlag(values['audit-log-compress'] ?? 'false', 'audit-log-compress', parsing);
  const batch = logBatchOptions(values, parsing);
  const truncate = truncateOptions(values, 'log', parsing);
  if (path === '') return undefined;
  return {
    path, format, maxAgeDays, maxBackups, maxSizeMegabytes, strict: mode === 'blocking-strict', compress,
    ...(mode === 'batch' ? { batch } : {}),
    ...(truncate === undefined ? {} : { truncate }),
  };
}

/**
 * The --audit-log-batch-* flags, parsed whatever the mode, checked as kube checks them (only in
 * batch mode: kube's defaults, throttle off with QPS and burst 0, are valid only unused).
 */
function logBatchOptions(values: AuditFlagValues, parsing: Parsing): BatchOptions {
  const throttleEnable = booleanFlag(values['audit-log-batch-throttle-enable'] ?? 'false', 'audit-log-batch-throttle-enable', parsing);
  const options: BatchOptions = {
    bufferSize: anyInteger(values, 'audit-log-batch-buffer-size', parsing),
    maxBatchSize: anyInteger(values, 'audit-log-batch-max-size', parsing),
    maxBatchWaitMs: parsing.parseDurationMs(values['audit-log-batch-max-wait'] ?? '0s', 'audit-log-batch-max-wait'),
    throttleEnable,
    throttleQps: float(values['audit-log-batch-throttle-qps'] ?? '0', 'audit-log-batch-throttle-qps', parsing),
    throttleBurst: anyInteger(values, 'audit-log-batch-throttle-burst', parsing),
  };
  if ((values['audit-log-mode'] ?? 'blocking') !== 'batch') return options;
  const check = (ok: boolean, flag: string, what: string, value: number): void => {
    if (!ok) throw parsing.makeError(`--${flag}: invalid audit batch log ${what} ${value}, must be a positive number`);
  };
  check(options.bufferSize > 0, 'audit-log-batch-buffer-size', 'buffer size', options.bufferSize);
  check(options.maxBatchSize > 0, 'audit-log-batch-max-size', 'max batch size', options.maxBatchSize);
  if (throttleEnable) {
    check(options.throttleQps > 0, 'audit-log-batch-throttle-qps', 'throttle QPS', options.throttleQps);
    check(options.throttleBurst > 0, 'audit-log-batch-throttle-burst', 'throttle burst', options.throttleBurst);
  }
  return options;
}

/** The --audit-<backend>-truncate-* flags: undefined when not enabled (the sizes are then not checked, as in kube). */
function truncateOptions(values: AuditFlagValues, backend: Backend, parsing: Parsing): TruncateOptions | undefined {
  const enabled = booleanFlag(values[`audit-${backend}-truncate-enabled`] ?? 'false', `audit-${backend}-truncate-enabled`, parsing);
  const maxBatchBytes = anyInteger(values, `audit-${backend}-truncate-max-batch-size`, parsing);
  const maxEventBytes = anyInteger(values, `audit-${backend}-truncate-max-event-size`, parsing);
  if (!enabled) return undefined;
  if (maxEventBytes <= 0) throw parsing.makeError(`--audit-${backend}-truncate-max-event-size: invalid audit truncate ${backend} max event size ${maxEventBytes}, must be a positive number`);
  if (maxBatchBytes < maxEventBytes) throw parsing.makeError(`--audit-${backend}-truncate-max-batch-size: invalid audit truncate ${backend} max batch size ${maxBatchBytes}, must be greater than max event size (${maxEventBytes})`);
  return { maxBatchBytes, maxEventBytes };
}

function batchOptions(values: AuditFlagValues, parsing: Parsing): BatchOptions {
  const throttleEnable = booleanFlag(values['audit-webhook-batch-throttle-enable'] ?? 'true', 'audit-webhook-batch-throttle-enable', parsing);
  const maxBatchWaitMs = parsing.parseDurationMs(values['audit-webhook-batch-max-wait'] ?? '30s', 'audit-webhook-batch-max-wait');
  return {
    bufferSize: integer(values, 'audit-webhook-batch-buffer-size', parsing, true),
    maxBatchSize: integer(values, 'audit-webhook-batch-max-size', parsing, true),
    maxBatchWaitMs,
    throttleEnable,
    throttleQps: throttleEnable ? qps(values['audit-webhook-batch-throttle-qps'] ?? '10', parsing) : 10,
    throttleBurst: throttleEnable ? integer(values, 'audit-webhook-batch-throttle-burst', parsing, true) : 15,
  };
}

function webhookOptions(values: AuditFlagValues, parsing: Parsing): AuditWebhookOptions | undefined {
  const mode = values['audit-webhook-mode'] ?? 'batch';
  if (mode === 'blocking' || mode === 'blocking-strict') throw parsing.makeError(`--audit-webhook-mode: ${mode} is not supported by orch: the webhook backend sends in batches (batch)`);
  if (mode !== 'batch') throw parsing.makeError(`--audit-webhook-mode: invalid audit webhook mode ${mode}, allowed modes are "batch,blocking,blocking-strict"`);
  checkVersion(values, 'audit-webhook-version', parsing);
  const deprecatedBackoff = values['audit-webhook-batch-initial-backoff'];
  if (deprecatedBackoff !== undefined) parsing.warn('--audit-webhook-batch-initial-backoff is deprecated, use --audit-webhook-initial-backoff instead');
  const backoffFlag = deprecatedBackoff !== undefined && values['audit-webhook-initial-backoff'] === undefined ? 'audit-webhook-batch-initial-backoff' : 'audit-webhook-initial-backoff';
  const initialBackoffMs = parsing.parseDurationMs(values[backoffFlag] ?? '10s', backoffFlag);
  if (initialBackoffMs <= 0) throw parsing.makeError(`--${backoffFlag}: must be a positive duration`);
  const batch = batchOptions(values, parsing);
  const truncate = truncateOptions(values, 'webhook', parsing);
  const file = values['audit-webhook-config-file'] ?? '';
  if (file === '') return undefined;
  try {
    return { endpoint: webhookEndpointFromKubeconfig(readFileSync(file, 'utf8'), dirname(file)), initialBackoffMs, batch, ...(truncate === undefined ? {} : { truncate }) };
  } catch (err) {
    throw parsing.makeError(`--audit-webhook-config-file: ${file}: ${(err as Error).message}`);
  }
}

/** The audit flags after validation. */
export interface AuditFlags {
  /** Undefined without --audit-policy-file: no audit. */
  readonly options: AuditOptions | undefined;
  /** What the replica logs at start (a deprecated policy apiVersion). */
  readonly warnings: readonly string[];
}

/** Validates the audit flags and reads their files; throws `makeError(message)` naming the flag and file. */
export function parseAuditFlags(values: AuditFlagValues, parseDurationMs: (text: string, flag: string) => number, makeError: (message: string) => Error): AuditFlags {
  const warnings: string[] = [];
  const parsing: Parsing = { parseDurationMs, makeError, warn: (message) => warnings.push(`audit: ${message}`) };
  const log = logOptions(values, parsing);
  const webhook = webhookOptions(values, parsing);
  const file = values['audit-policy-file'] ?? '';
  if (file === '') return { options: undefined, warnings };
  try {
    const policy = loadPolicyFile(file, parsing.warn);
    return { options: { policy, ...(log === undefined ? {} : { log }), ...(webhook === undefined ? {} : { webhook }) }, warnings };
  } catch (err) {
    if (err instanceof PolicyFileError) throw parsing.makeError(`--audit-policy-file: ${err.message}`);
    throw err;
  }
}
