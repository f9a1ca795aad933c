// kube's truncate backend: an event over max-event-size loses its bodies and is annotated
// audit.k8s.io/truncated; one still too large is dropped and counted; batches split by bytes.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Registry } from 'prom-client';
import { encodeEvent, type AuditEvent } from '../../../internal/audit/event.ts';
import { AuditMetrics } from '../../../internal/audit/metrics.ts';
import type { AuditSink, EncodedEvent } from '../../../internal/audit/sink.ts';
import { defaultTruncateOptions, truncateSink } from '../../../internal/audit/truncate.ts';

function encoded(id: string, level: AuditEvent['level'], bodyChars: number, uri = '/api/v1/namespaces/default/configmaps'): EncodedEvent {
  const body = bodyChars > 0 ? JSON.stringify({ data: 'x'.repeat(bodyChars) }) : undefined;
  const event: AuditEvent = {
    level, auditID: id, stage: 'ResponseComplete', requestURI: uri, verb: 'create', user: { username: 'alice', uid: '', groups: [], extra: {} },
    sourceIPs: ['127.0.0.1'], userAgent: 'test', responseStatus: { code: 201 }, requestReceivedMs: 0, stageMs: 0, annotations: new Map([['a', 'b']]),
    ...(body === undefined ? {} : { requestObject: body, responseObject: body }),
  };
  return { event, json: encodeEvent(event) };
}

function recorder(): { sink: AuditSink; batches: EncodedEvent[][] } {
  const batches: EncodedEvent[][] = [];
  return { batches, sink: { processEvents: (events) => (batches.push([...events]), true), shutdown: () => Promise.resolve() } };
}

test('kube\'s defaults: 10485760-byte batches, 102400-byte events', () => {
  assert.deepEqual(defaultTruncateOptions, { maxBatchBytes: 10_485_760, maxEventBytes: 102_400 });
});

test('a large event loses requestObject and responseObject and is annotated; small ones pass as they are', () => {
  const registry = new Registry();
  const { sink, batches } = recorder();
  const truncating = truncateSink(sink, { maxBatchBytes: 10_000, maxEventBytes: 1000 }, new AuditMetrics(registry), () => assert.fail('nothing is dropped'));
  const small = encoded('small', 'RequestResponse', 10);
  assert.equal(truncating.processEvents([small, encoded('big', 'RequestResponse', 2000)]), true);
  assert.equal(batches.length, 1);
  assert.equal(batches[0]?.[0], small);
  const cut = batches[0]?.[1];
  assert.equal(cut?.event.requestObject, undefined);
  assert.equal(cut?.event.responseObject, undefined);
  const json = JSON.parse(cut?.json ?? '{}') as Record<string, unknown>;
  assert.deepEqual(json.annotations, { a: 'b', 'audit.k8s.io/truncated': 'true' });
  assert.equal('requestObject' in json, false);
  assert.ok(cut !== undefined);
  assert.equal(cut.json, encodeEvent(cut.event));
});

test('an event still too large is dropped, counted (plugin truncate) and logged with the error; a Metadata event is never cut', async () => {
  const registry = new Registry();
  const { sink, batches } = recorder();
  const logged: [string, unknown][] = [];
  const ok = encoded('ok', 'Metadata', 0);
  const truncating = truncateSink(sink, { maxBatchBytes: 10_000, maxEventBytes: Buffer.byteLength(ok.json) }, new AuditMetrics(registry), (message, err) => void logged.push([message, err]));
  const longUri = `/api/v1/namespaces/default/configmaps?x=${'y'.repeat(500)}`;
  truncating.processEvents([encoded('huge', 'RequestResponse', 2000, longUri), encoded('meta', 'Metadata', 0, longUri), ok]);
  assert.deepEqual(batches.map((b) => b.map((e) => e.event.auditID)), [['ok']]);
  assert.match(await registry.metrics(), /apiserver_audit_error_total\{plugin="truncate"\} 2/);
  assert.equal(logged.length, 1);
  assert.match(logged[0]?.[0] as string, /^Error in audit plugin 'truncate' affecting 2 audit events: event is too large even after truncating\nImpacted events:\n.* AUDIT: id="huge"/);
  assert.ok(logged[0]?.[1] instanceof Error);
});

test('batches are split so that none passes max-batch-size bytes', () => {
  const { sink, batches } = recorder();
  const events = Array.from({ length: 5 }, (_, i) => encoded(`e${i}`, 'Metadata', 0));
  const size = Buffer.byteLength(events[0]?.json ?? '');
  truncateSink(sink, { maxBatchBytes: size * 2, maxEventBytes: size }, new AuditMetrics(new Registry()), () => undefined).processEvents(events);
  assert.deepEqual(batches.map((b) => b.length), [2, 2, 1]);
});
