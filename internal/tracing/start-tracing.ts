// Turns tracing on for this process (--tracing-config-file): a Node tracer provider registered
// with the OpenTelemetry API (AsyncLocalStorage context, W3C trace context propagation), sampling
// as kube-apiserver does (ParentBased(TraceIdRatioBased(samplingRatePerMillion / 1e6))), spans
// batched to an OTLP HTTP (JSON) exporter. Without it no provider exists: the API's no-op.
import { diag, DiagLogLevel } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
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

/**
 * Registers the global tracer provider. `instance` names this replica (service.instance.id);
 * `warn` hears the SDK's warnings and errors (an exporter that cannot reach its receiver). Call
 * once per process.
 */
export function startTracing(settings: TracingSettings, instance: string, warn: (message: string) => void): RunningTracing {
  const report = (message: string, ...args: unknown[]): void => warn([message, ...args.map(String)].join(' '));
  const quiet = (): void => undefined;
  diag.setLogger({ error: report, warn: report, info: quiet, debug: quiet, verbose: quiet }, DiagLogLevel.WARN);
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
      await provider.shutdown().catch((err: unknown) => report('tracing: shutdown failed:', err));
    },
  };
}
