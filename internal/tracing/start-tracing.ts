// Turns tracing on for this process (--tracing-config-file): a Node tracer provider registered
// with the OpenTelemetry API (AsyncLocalStorage context, W3C trace context propagation), sampling
// as kube-apiserver does (ParentBased(TraceIdRatioBased(samplingRatePerMillion / 1e6))), spans
// batched to an OTLP HTTP (JSON) exporter. Without it no provider exists: the API's no-op.
import { diag, DiagLogLevel } from '@opentelemetry/api';
import { setGlobalErrorHandler, W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, NodeTracerProvider, ParentBasedSampler, TraceIdRatioBasedSampler } from '@opentelemetry/sdk-trace-node';
import { markTracingStarted, markTracingStopped } from './spans.ts';
import type { TracingSettings } from './tracing-config.ts';

/** A started tracer provider. */
export interface RunningTracing {
  /** Exports the spans still queued (the process is ending); never rejects. */
  shutdown(): Promise<void>;
}

/** A warning line: a short message, the error (pino's `err`) and counts in fields. */
export type TracingWarn = (message: string, fields?: Readonly<Record<string, unknown>>) => void;

/** A line with the same text is written at most once in this time (a receiver that is down fails every export). */
export const tracingWarnIntervalMs = 60_000;
/** Distinct texts remembered for that; past it the memory starts over. */
const tracingWarnKeysMax = 256;

/**
 * `warn`, at most once per `intervalMs` per distinct key (the error's message); the next line
 * written for a key says how many were held back (`suppressed`).
 */
export function rateLimitedWarn(warn: TracingWarn, intervalMs = tracingWarnIntervalMs, now: () => number = Date.now): (key: string, message: string, fields?: Readonly<Record<string, unknown>>) => void {
  const seen = new Map<string, { lastMs: number; suppressed: number }>();
  return (key, message, fields) => {
    const t = now();
    const entry = seen.get(key);
    if (entry !== undefined && t - entry.lastMs < intervalMs) {
      entry.suppressed += 1;
      return;
    }
    if (entry === undefined && seen.size >= tracingWarnKeysMax) seen.clear();
    const suppressed = entry?.suppressed ?? 0;
    seen.set(key, { lastMs: t, suppressed: 0 });
    warn(message, { ...fields, ...(suppressed > 0 ? { suppressed } : {}) });
  };
}

/** An exception's text, for grouping repeated failures. */
function errorKey(err: unknown): string {
  if (err instanceof Error) return `${err.name}: ${err.message}`;
  return typeof err === 'string' ? err : JSON.stringify(err) ?? String(err);
}

/**
 * Registers the global tracer provider. `instance` names this replica (service.instance.id);
 * `warn` hears the SDK's warnings and errors (an exporter that cannot reach its receiver:
 * `OTLP export failed` with the error in `err`), each distinct one at most once a minute. Call
 * once per process.
 */
export function startTracing(settings: TracingSettings, instance: string, warn: TracingWarn): RunningTracing {
  const limited = rateLimitedWarn(warn);
  // The SDK's own lines (diag): text, with any Error among the arguments as `err`.
  const report = (message: string, ...args: unknown[]): void => {
    const err = args.find((a) => a instanceof Error);
    const text = [message, ...args.filter((a) => a !== err).map((a) => (typeof a === 'string' ? a : errorKey(a)))].join(' ').slice(0, 300);
    limited(`diag ${text}`, `tracing: ${text}`, err === undefined ? {} : { err });
  };
  const quiet = (): void => undefined;
  diag.setLogger({ error: report, warn: report, info: quiet, debug: quiet, verbose: quiet }, DiagLogLevel.WARN);
  // Failed exports reach the global error handler (whose default JSON-stringifies the whole error into one diag line).
  setGlobalErrorHandler((ex) => {
    const err = ex instanceof Error ? ex : new Error(errorKey(ex));
    limited(`export ${errorKey(ex)}`, 'OTLP export failed', { err });
  });
  const exporter = new OTLPTraceExporter({ url: settings.url });
  const provider = new NodeTracerProvider({
    // kube-apiserver's service name, so dashboards built for it find orch's spans.
    resource: resourceFromAttributes({ 'service.name': 'apiserver', 'service.instance.id': instance }),
    sampler: new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(settings.samplingRatePerMillion / 1_000_000) }),
    // Queue and batch sizes: the SDK's defaults (2048 spans queued at most; more are dropped).
    spanProcessors: [new BatchSpanProcessor(exporter)],
  });
  provider.register({ propagator: new W3CTraceContextPropagator() });
  markTracingStarted();
  return {
    async shutdown() {
      markTracingStopped();
      await provider.shutdown().catch((err: unknown) => warn('tracing: shutdown failed', { err }));
    },
  };
}
