// Builds the audit from its options (the --audit-* flags): the log backend over a rotating file or
// stdout, the webhook backend behind the buffered one, and the counters on the replica's registry.
// No policy, or a policy without any backend, is no audit at all, as in kube-apiserver.
import { writeSync } from 'node:fs';
import type { Registry } from 'prom-client';
import type { WebhookEndpoint } from '../authn/webhook/kubeconfig.ts';
import { Auditor } from './auditor.ts';
import { BufferedBackend, type BatchOptions } from './buffered-backend.ts';
import { logBackend, type LogFormat } from './log-backend.ts';
import { AuditMetrics } from './metrics.ts';
import type { Policy } from './policy.ts';
import { RotatingFile } from './rotating-file.ts';
import { unionSink, type AuditSink } from './sink.ts';
import { webhookSender } from './webhook-backend.ts';

/** The log backend's settings (--audit-log-*). */
export interface AuditLogOptions {
  /** A file, or `-` for standard output. */
  readonly path: string;
  readonly format: LogFormat;
  readonly maxAgeDays: number;
  readonly maxBackups: number;
  readonly maxSizeMegabytes: number;
  /** blocking-strict: a request whose first event cannot be written is refused. */
  readonly strict: boolean;
}

/** The webhook backend's settings (--audit-webhook-*). */
export interface AuditWebhookOptions {
  readonly endpoint: WebhookEndpoint;
  readonly initialBackoffMs: number;
  readonly batch: BatchOptions;
}

/** Everything the audit is built from. */
export interface AuditOptions {
  readonly policy: Policy;
  readonly log?: AuditLogOptions;
  readonly webhook?: AuditWebhookOptions;
}

function logSink(options: AuditLogOptions, metrics: AuditMetrics, log: (message: string, err?: unknown) => void): AuditSink {
  if (options.path === '-') {
    return logBackend({ format: options.format, strict: options.strict, write: (line) => void writeSync(1, line), close: () => undefined, metrics, log });
  }
  let file: RotatingFile;
  try {
    file = new RotatingFile({ path: options.path, maxSizeBytes: options.maxSizeMegabytes * 1024 * 1024, maxBackups: options.maxBackups, maxAgeDays: options.maxAgeDays });
  } catch (err) {
    throw new Error(`--audit-log-path: cannot open the audit log ${options.path}: ${(err as Error).message}`);
  }
  return logBackend({ format: options.format, strict: options.strict, write: (line) => file.write(line), close: () => file.close(), metrics, log });
}

/**
 * The auditor, or undefined when nothing is to be audited. Throws when the log file cannot be
 * created (the replica does not start).
 */
export function startAudit(options: AuditOptions | undefined, registry: Registry, log: (message: string, err?: unknown) => void): Auditor | undefined {
  if (options === undefined) return undefined;
  if (options.log === undefined && options.webhook === undefined) {
    log('audit: --audit-policy-file is set but neither --audit-log-path nor --audit-webhook-config-file: nothing is audited');
    return undefined;
  }
  const metrics = new AuditMetrics(registry);
  const sinks: AuditSink[] = [];
  if (options.log !== undefined) sinks.push(logSink(options.log, metrics, log));
  const webhook = options.webhook;
  if (webhook !== undefined) {
    const send = webhookSender({ endpoint: webhook.endpoint, initialBackoffMs: webhook.initialBackoffMs, metrics, log });
    sinks.push(new BufferedBackend(send, webhook.batch, metrics, log));
  }
  return new Auditor(options.policy, unionSink(sinks), metrics);
}
