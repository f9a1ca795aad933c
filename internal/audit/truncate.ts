// kube's truncate backend (k8s.io/apiserver plugin/pkg/audit/truncate), in front of a log or
// webhook backend with --audit-{log,webhook}-truncate-enabled: an event whose JSON is larger than
// max-event-size loses its requestObject and responseObject (from level Request) and is annotated
// `audit.k8s.io/truncated: "true"`; one still too large is dropped and counted as an error of
// plugin `truncate`; the events that pass go on in batches of at most max-batch-size bytes.
import { encodeEvent, type AuditEvent } from './event.ts';
import { levelAtLeast } from './policy.ts';
import { pluginErrorMessage } from './log-backend.ts';
import type { AuditMetrics } from './metrics.ts';
import type { AuditSink, EncodedEvent } from './sink.ts';

/** The --audit-*-truncate-* settings. */
export interface TruncateOptions {
  /** Bytes of the events' JSON in one batch handed on (kube's default 10485760). */
  readonly maxBatchBytes: number;
  /** Bytes of one event's JSON (kube's default 102400). */
  readonly maxEventBytes: number;
}

/** kube's defaults. */
export const defaultTruncateOptions: TruncateOptions = { maxBatchBytes: 10 * 1024 * 1024, maxEventBytes: 100 * 1024 };

const annotationKey = 'audit.k8s.io/truncated';

/** The event without its bodies, annotated as truncated. */
function truncated(event: AuditEvent): EncodedEvent {
  const { requestObject: _request, responseObject: _response, ...rest } = event;
  const annotations = new Map(event.annotations);
  annotations.set(annotationKey, 'true');
  const cut: AuditEvent = { ...rest, annotations };
  return { event: cut, json: encodeEvent(cut) };
}

/** A sink that truncates and splits as kube's truncate backend, then hands batches to `delegate`. */
export function truncateSink(delegate: AuditSink, options: TruncateOptions, metrics: AuditMetrics, log: (message: string, err?: unknown) => void): AuditSink {
  return {
    processEvents(events) {
      let success = true;
      const impacted: AuditEvent[] = [];
      let batch: EncodedEvent[] = [];
      let batchBytes = 0;
      for (let encoded of events) {
        let size = Buffer.byteLength(encoded.json, 'utf8');
        if (size > options.maxEventBytes && levelAtLeast(encoded.event.level, 'Request')) {
          encoded = truncated(encoded.event);
          size = Buffer.byteLength(encoded.json, 'utf8');
        }
        if (size > options.maxEventBytes) {
          impacted.push(encoded.event);
          continue;
        }
        if (batch.length > 0 && batchBytes + size > options.maxBatchBytes) {
          success = delegate.processEvents(batch) && success;
          batch = [];
          batchBytes = 0;
        }
        batchBytes += size;
        batch.push(encoded);
      }
      if (batch.length > 0) success = delegate.processEvents(batch) && success;
      if (impacted.length > 0) {
        metrics.pluginError('truncate', impacted.length);
        const reason = 'event is too large even after truncating';
        log(pluginErrorMessage('truncate', reason, impacted), new Error(reason));
      }
      return success;
    },
    shutdown() {
      return delegate.shutdown();
    },
  };
}
