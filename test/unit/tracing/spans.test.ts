// The span helpers with a real SDK (spans kept in memory): nothing is made before a provider is
// registered; after, the request's SERVER span follows the client's traceparent and inner spans
// nest under it, across awaits.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { InMemorySpanExporter, NodeTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-node';
import { inChildSpan, markTracingStarted, markTracingStopped, startServerSpan, tracingStarted } from '../../../internal/tracing/spans.ts';

test('spans: none until started; then a server span under the client traceparent with children across awaits', async () => {
  let asked = 0;
  const attributes = () => {
    asked += 1;
    return { key: 'k' };
  };
  assert.equal(tracingStarted(), false);
  assert.equal(startServerSpan('GET', {}, attributes), undefined);
  assert.equal(await inChildSpan('Create storage', attributes, async (span) => span), undefined);
  assert.equal(asked, 0, 'no attributes are built while tracing is off');

  const exporter = new InMemorySpanExporter();
  const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  provider.register({ propagator: new W3CTraceContextPropagator() });
  markTracingStarted();
  try {
    // A write outside any request (a controller's) makes no root span.
    assert.equal(await inChildSpan('Create storage', attributes, async (span) => span), undefined);
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4737';
    const traced = startServerSpan('POST', { traceparent: `00-${traceId}-00f067aa0ba902b7-01` }, () => ({ 'http.method': 'POST' }));
    assert.ok(traced !== undefined);
    await traced.run(async () => {
      await inChildSpan('Admission mutating', () => ({}), async () => undefined);
      await inChildSpan('Create storage', attributes, async () => {
        await new Promise((resolve) => setTimeout(resolve, 2));
        await inChildSpan('Raft commit', () => ({}), async () => undefined);
      });
      await assert.rejects(inChildSpan('Update storage', () => ({}), async () => {
        throw new Error('Conflict');
      }), /Conflict/);
    });
    traced.span.end();
    const spans = exporter.getFinishedSpans();
    const byName = new Map(spans.map((s) => [s.name, s]));
    const server = byName.get('POST');
    assert.ok(server !== undefined);
    assert.equal(server.kind, SpanKind.SERVER);
    assert.equal(server.spanContext().traceId, traceId);
    assert.equal(server.parentSpanContext?.spanId, '00f067aa0ba902b7');
    const id = (name: string) => byName.get(name)?.spanContext().spanId;
    assert.equal(byName.get('Admission mutating')?.parentSpanContext?.spanId, id('POST'));
    assert.equal(byName.get('Create storage')?.parentSpanContext?.spanId, id('POST'));
    assert.equal(byName.get('Raft commit')?.parentSpanContext?.spanId, id('Create storage'));
    assert.equal(byName.get('Update storage')?.status.code, SpanStatusCode.ERROR);
    assert.equal(byName.get('Create storage')?.attributes.key, 'k');
    assert.ok(spans.every((s) => s.spanContext().traceId === traceId));
  } finally {
    markTracingStopped();
    await provider.shutdown();
  }
});
