// The replica's audit flags, as kube-apiserver 1.28 names and checks them
// (k8s.io/apiserver pkg/server/options/audit.go): the policy file, the log backend (blocking) and
// the webhook backend (batch). The policy and the webhook's kubeconfig are read here: a bad file
// stops the replica at start with one line naming it.
import { dirname } from 'node:path';
import { readFileSync } from 'node:fs';
import { webhookEndpointFromKubeconfig } from '../authn/webhook/kubeconfig.ts';
import type { BatchOptions } from '../audit/buffered-backend.ts';
import { loadPolicyFile, PolicyFileError } from '../audit/policy-file.ts';
import type { AuditLogOptions, AuditOptions, AuditWebhookOptions } from '../audit/start-audit.ts';

/** The parseArgs options of the audit flags. */
export const auditFlagOptions = {
  'audit-policy-file': { type: 'string' },
  'audit-log-path': { type: 'string' },
  'audit-log-format': { type: 'string', default: 'json' },
  'audit-log-maxage': { type: 'string', default: '0' },
  'audit-log-maxbackup': { type: 'string', default: '0' },
  'audit-log-maxsize': { type: 'string', default: '0' },
  'audit-log-mode': { type: 'string', default: 'blocking' },
  'audit-log-version': { type: 'string', default: 'audit.k8s.io/v1' },
  'audit-webhook-config-file': { type: 'string' },
  'audit-webhook-mode': { type: 'string', default: 'batch' },
  'audit-webhook-version': { type: 'string', default: 'audit.k8s.io/v1' },
  'audit-webhook-initial-backoff': { type: 'string', default: '10s' },
  'audit-webhook-batch-buffer-size': { type: 'string', default: '10000' },
  'audit-webhook-batch-max-size': { type: 'string', default: '400' },
  'audit-webhook-batch-max-wait': { type: 'string', default: '30s' },
  'audit-webhook-batch-throttle-enable': { type: 'string', default: 'true' },
  'audit-webhook-batch-throttle-qps': { type: 'string', default: '10' },
  'audit-webhook-batch-throttle-burst': { type: 'string', default: '15' },
} as const;

/** The values parseArgs gives for them. */
export type AuditFlagValues = { readonly [flag in keyof typeof auditFlagOptions]?: string | undefined };

/** `--audit-webhook-batch-throttle-enable` alone means true (parseArgs takes only `--flag=value` for a string flag). */
export function normalizeAuditBooleanFlags(argv: readonly string[]): string[] {
  return argv.map((arg) => (arg === '--audit-webhook-batch-throttle-enable' ? `${arg}=true` : arg));
}

interface Parsing {
  readonly parseDurationMs: (text: string, flag: string) => number;
  readonly makeError: (message: string) => Error;
  readonly warn: (message: string) => void;
}

type IntegerFlag = 'audit-log-maxage' | 'audit-log-maxbackup' | 'audit-log-maxsize' | 'audit-webhook-batch-buffer-size' | 'audit-webhook-batch-max-size' | 'audit-webhook-batch-throttle-burst';

function integer(values: AuditFlagValues, flag: IntegerFlag, parsing: Parsing, positive: boolean): number {
  const text = (values[flag] ?? auditFlagOptions[flag].default).trim();
  const n = /^-?\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(n)) throw parsing.makeError(`--${flag}: "${text}" is not an integer`);
  if (positive && n <= 0) throw parsing.makeError(`--${flag}: ${n} must be a positive number`);
  if (n < 0) throw parsing.makeError(`--${flag}: ${n} can't be a negative number`);
  return n;
}

function qps(text: string, parsing: Parsing): number {
  const n = /^\d+(\.\d+)?$/.test(text.trim()) ? Number(text) : Number.NaN;
  if (!(n > 0)) throw parsing.makeError(`--audit-webhook-batch-throttle-qps: "${text}" must be a positive number`);
  return n;
}

function booleanFlag(text: string, flag: string, parsing: Parsing): boolean {
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(text)) return true;
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(text)) return false;
  throw parsing.makeError(`--${flag}: "${text}" is not true or false`);
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
  if (mode === 'batch') throw parsing.makeError('--audit-log-mode: batch is not supported by orch: the log backend writes each event before the answer (blocking or blocking-strict)');
  if (mode !== 'blocking' && mode !== 'blocking-strict') throw parsing.makeError(`--audit-log-mode: invalid audit log mode ${mode}, allowed modes are "batch,blocking,blocking-strict"`);
  checkVersion(values, 'audit-log-version', parsing);
  const maxAgeDays = integer(values, 'audit-log-maxage', parsing, false);
  const maxBackups = integer(values, 'audit-log-maxbackup', parsing, false);
  const maxSizeMegabytes = integer(values, 'audit-log-maxsize', parsing, false);
  if (path === '') return undefined;
  return { path, format, maxAgeDays, maxBackups, maxSizeMegabytes, strict: mode === 'blocking-strict' };
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
  const initialBackoffMs = parsing.parseDurationMs(values['audit-webhook-initial-backoff'] ?? '10s', 'audit-webhook-initial-backoff');
  if (initialBackoffMs <= 0) throw parsing.makeError('--audit-webhook-initial-backoff: must be a positive duration');
  const batch = batchOptions(values, parsing);
  const file = values['audit-webhook-config-file'] ?? '';
  if (file === '') return undefined;
  try {
    return { endpoint: webhookEndpointFromKubeconfig(readFileSync(file, 'utf8'), dirname(file)), initialBackoffMs, batch };
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
