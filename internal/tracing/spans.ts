// The spans the layers make, through @opentelemetry/api only (any layer may import this leaf; it
// imports nothing of orch). Until `startTracing` registers a provider, every helper here costs one
// boolean test: no span object, no attribute built, no context switch.
//
// Inner spans (admission, store write, Raft commit) are made only under a recording parent (the
// request's span): a controller's or a bootstrap's write makes no root trace of its own.
import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Attributes, type Span, type Tracer } from '@opentelemetry/api';

/** The instrumentation scope of orch's spans. */
export const tracerName = 'orch';

let tracerInUse: Tracer | null = null;

/** Called once a tracer provider is registered (start-tracing.ts): from then on spans are made. */
export function markTracingStarted(): void {
  tracerInUse = trace.getTracer(tracerName);
}

/** Called when the provider is shut down: back to no spans. */
export function markTracingStopped(): void {
  tracerInUse = null;
}

/** Whether spans are made at all (a provider is registered). */
export function tracingStarted(): boolean {
  return tracerInUse !== null;
}

/**
 * Runs `fn` in a child span of the active, recording span (none: `fn` runs as it is, given
 * undefined). The span ends when `fn` settles; a rejection is recorded and marks it an error.
 * `attributes` is called only when a span is made.
 */
export function inChildSpan<T>(name: string, attributes: () => Attributes, fn: (span: Span | undefined) => Promise<T>): Promise<T> {
  const tracer = tracerInUse;
  if (tracer === null) return fn(undefined);
  const parent = trace.getActiveSpan();
  if (parent === undefined || !parent.isRecording()) return fn(undefined);
  return tracer.startActiveSpan(name, { kind: SpanKind.INTERNAL, attributes: attributes() }, async (span) => {
    try {
      return await fn(span);
    } catch (err) {
      span.recordException(err instanceof Error ? err : String(err));
      span.setStatus({ code: SpanStatusCode.ERROR, message: err instanceof Error ? err.message : String(err) });
      throw err;
    } finally {
      span.end();
    }
  });
}

/** Header values as Node gives them. */
export type HeaderCarrier = Readonly<Record<string, string | readonly string[] | undefined>>;

/**
 * Starts a request's SERVER span, a child of the client's W3C `traceparent` when it sent one
 * (sampled as the parent says, else by the configured rate), for `run` to serve inside. Returns
 * undefined when tracing is off (`attributes` is not called): the caller serves as usual.
 */
export function startServerSpan(name: string, headers: HeaderCarrier, attributes: () => Attributes): { span: Span; run<T>(serve: () => Promise<T>): Promise<T> } | undefined {
  const tracer = tracerInUse;
  if (tracer === null) return undefined;
  const parent = propagation.extract(ROOT_CONTEXT, headers);
  const span = tracer.startSpan(name, { kind: SpanKind.SERVER, attributes: attributes() }, parent);
  const active = trace.setSpan(parent, span);
  return { span, run: (serve) => context.with(active, serve) };
}
