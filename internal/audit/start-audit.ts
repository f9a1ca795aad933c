// Builds the audit from its options (the --audit-* flags): the log backend over a rotating file or
// stdout (behind the buffered backend in batch mode), the webhook backend behind the buffered one,
// either behind the truncate backend when asked, and the counters on the replica's registry.
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
import { truncateSink, type TruncateOptions } from './truncate.ts';
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
  /** --audit-log-compress: rotated backups are gzipped. */
  readonly compress: boolean;
  /** --audit-log-mode=batch: events are written in the background, in batches (kube's buffered backend). */
  readonly batch?: BatchOptions;
  /** --audit-log-truncate-enabled. */
  readonly truncate?: TruncateOptions;
}

/** The webhook backend's settings (--audit-webhook-*). */
export interface AuditWebhookOptions {
  readonly endpoint: WebhookEndpoint;
  readonly initialBackoffMs: number;
  readonly batch: BatchOptions;
  /** --audit-webhook-truncate-enabled. */
  readonly truncate?: TruncateOptions;
}

/** Everything the audit is built from. */
export interface AuditOptions {
  readonly policy: Policy;
  readonly log?: AuditLogOptions;
  readonly webhook?: AuditWebhookOptions;
}

/** The sink as kube wraps it: truncate(buffered(backend)), each layer when its flags ask for it. */
function wrapped(backend: AuditSink, batch: BatchOptions | undefined, truncate: TruncateOptions | undefined, metrics: AuditMetrics, log: (message: string, err?: unknown) => void): AuditSink {
  let sink = backend;
  if (batch !== undefined) {
    const buffered = new BufferedBackend((events) => Promise.resolve(void backend.processEvents(events)), batch, metrics, log);
    sink = {
      processEvents: (events) => buffered.processEvents(events),
      // What is buffered is written, then the file is closed.
      shutdown: () => buffered.shutdown().then(() => backend.shutdown()),
    };
  }
  if (truncate !== undefined) sink = truncateSink(sink, truncate, metrics, log);
  return sink;
}

function logSink(options: AuditLogOptions, metrics: AuditMetrics, log: (message: string, err?: unknown) => void): AuditSink {
  // Batch mode never fails a request: the write happens after the answer.
  const strict = options.strict && options.batch === undefined;
  if (options.path === '-') {
    return wrapped(logBackend({ format: options.format, strict, write: (line) => void writeSync(1, line), close: () => undefined, metrics, log }), options.batch, options.truncate, metrics, log);
  }
  let file: RotatingFile;
  try {
    file = new RotatingFile({ path: options.path, maxSizeBytes: options.maxSizeMegabytes * 1024 * 1024, maxBackups: options.maxBackups, maxAgeDays: options.maxAgeDays, compress: options.compress });
  } catch (err) {
    throw new Error(`--audit-log-path: cannot open the audit log ${options.path}: ${(err as Error).message}`);
  }
  const backend = logBackend({ format: options.format, strict, write: (line) => file.write(line), close: () => file.close(), metrics, log });
  return wrapped(backend, options.batch, options.truncate, metrics, log);
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
    const buffered = new BufferedBackend(send, webhook.batch, metrics, log);
    sinks.push(webhook.truncate === undefined ? buffered : truncateSink(buffered, webhook.truncate, metrics, log));
  }
  return new Auditor(options.policy, unionSink(sinks), metrics);
}
