// The webhook backend behind kube's buffered backend, against a real HTTPS receiver: batches of at
// most maxBatchSize, a lone event after maxBatchWait, a 5xx retried after the initial backoff, a
// 4xx not, a full buffer dropping (counted) without blocking, the kubeconfig's CA and token used.
import 'reflect-metadata';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, test } from 'node:test';
import { Registry } from 'prom-client';
import { webhookEndpointFromKubeconfig } from '../../../internal/authn/webhook/kubeconfig.ts';
import { BufferedBackend, type BatchOptions } from '../../../internal/audit/buffered-backend.ts';
import { encodeEvent, type AuditEvent } from '../../../internal/audit/event.ts';
import { AuditMetrics } from '../../../internal/audit/metrics.ts';
import type { EncodedEvent } from '../../../internal/audit/sink.ts';
import { webhookSender } from '../../../internal/audit/webhook-backend.ts';
import { startAuditWebhookServer, type AuditWebhookServer } from '../../support/audit-webhook-server.ts';
import { eventually } from '../../support/auth-https.ts';

let receiver: AuditWebhookServer;
let dir: string;

before(async () => {
  receiver = await startAuditWebhookServer();
  dir = mkdtempSync(join(tmpdir(), 'orch-audit-webhook-'));
});
after(async () => {
  await receiver.close();
  rmSync(dir, { recursive: true, force: true });
});

let counter = 0;
function events(n: number): EncodedEvent[] {
  return Array.from({ length: n }, () => {
    const event: AuditEvent = {
      level: 'Metadata', auditID: `id-${counter++}`, stage: 'ResponseComplete', requestURI: '/api/v1/namespaces', verb: 'list',
      user: { username: 'alice', uid: '', groups: [], extra: {} }, sourceIPs: ['127.0.0.1'], userAgent: 'test', responseStatus: { code: 200 },
      requestReceivedMs: Date.now(), stageMs: Date.now(), annotations: new Map(),
    };
    return { event, json: encodeEvent(event) };
  });
}

const batch: BatchOptions = { bufferSize: 100, maxBatchSize: 3, maxBatchWaitMs: 150, throttleEnable: true, throttleQps: 100, throttleBurst: 100 };

function backend(options: BatchOptions, metrics: AuditMetrics): BufferedBackend {
  const path = join(dir, `kubeconfig-${counter}`);
  receiver.writeKubeconfig(path, 'audit-sender-token');
  const endpoint = webhookEndpointFromKubeconfig(readFileSync(path, 'utf8'), dirname(path));
  return new BufferedBackend(webhookSender({ endpoint, initialBackoffMs: 50, metrics, log: () => undefined }), options, metrics, () => undefined);
}

function ids(list: readonly { auditID: string }[]): string[] {
  return list.map((e) => e.auditID);
}

test('full batches go at once, the rest after maxBatchWait; one EventList per POST with the token', async () => {
  const sink = backend(batch, new AuditMetrics(new Registry()));
  const sent = events(7);
  const before = receiver.batches.length;
  assert.equal(sink.processEvents(sent), true);
  await eventually('two full batches', async () => receiver.batches.length >= before + 2, 2_000);
  await eventually('the last event', async () => receiver.batches.length >= before + 3, 2_000);
  const got = receiver.batches.slice(before);
  assert.deepEqual(got.map((b) => b.items.length), [3, 3, 1]);
  assert.deepEqual(got.flatMap((b) => ids(b.items)), ids(sent.map((e) => e.event)));
  assert.ok(got.every((b) => b.kind === 'EventList' && b.apiVersion === 'audit.k8s.io/v1' && b.authorization === 'Bearer audit-sender-token'));
  await sink.shutdown();
});

test('a 5xx is retried after the backoff; a 4xx is not, and is counted', async () => {
  const registry = new Registry();
  const sink = backend({ ...batch, maxBatchWaitMs: 10 }, new AuditMetrics(registry));
  const before = receiver.batches.length;
  const posts = receiver.posts();
  receiver.answerNext(500, 503);
  const sent = events(1);
  sink.processEvents(sent);
  await eventually('the retried batch', async () => receiver.batches.length > before, 3_000);
  assert.equal(receiver.posts() - posts, 3);
  assert.deepEqual(ids(receiver.batches[before]?.items ?? []), ids(sent.map((e) => e.event)));
  receiver.answerNext(400);
  sink.processEvents(events(2));
  await eventually('the refusal counted', async () => /apiserver_audit_error_total\{plugin="webhook"\} 2/.test(await registry.metrics()), 3_000);
  assert.equal(receiver.posts() - posts, 4);
  await sink.shutdown();
});

test('a full buffer drops what does not fit, counted, and never blocks', async () => {
  const registry = new Registry();
  const sink = backend({ ...batch, bufferSize: 3, maxBatchSize: 10, maxBatchWaitMs: 100 }, new AuditMetrics(registry));
  const before = receiver.batches.length;
  const sent = events(5);
  assert.equal(sink.processEvents(sent), true);
  assert.match(await registry.metrics(), /apiserver_audit_error_total\{plugin="buffered"\} 2/);
  await eventually('the kept events', async () => receiver.batches.length > before, 2_000);
  assert.deepEqual(ids(receiver.batches[before]?.items ?? []), ids(sent.slice(0, 3).map((e) => e.event)));
  await sink.shutdown();
});

test('shutdown sends what is buffered without waiting for maxBatchWait', async () => {
  const sink = backend({ ...batch, maxBatchWaitMs: 60_000 }, new AuditMetrics(new Registry()));
  const before = receiver.batches.length;
  sink.processEvents(events(2));
  await sink.shutdown();
  assert.equal(receiver.batches.length, before + 1);
  assert.equal(sink.processEvents(events(1)), true);
});
