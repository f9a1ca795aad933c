import { test } from 'node:test';
import assert from 'node:assert/strict';
import { OrchClient } from '../../../internal/client/client.ts';
import { Informer } from '../../../internal/client/informer.ts';
import type { KubeObject } from '../../../internal/client/objects.ts';
import { startFakeCluster, fastClock } from './fake-api.ts';

async function eventually(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 200; i += 1) {
    if (check()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  assert.fail(`never happened: ${what}`);
}

const name = (o: KubeObject) => o.metadata?.name ?? '?';

test('an informer lists in pages, then keeps its cache equal to the store through watch events', async () => {
  const cluster = await startFakeCluster(2);
  const client = new OrchClient({ servers: cluster.replicas.map((r) => r.url), clock: fastClock });
  const log: string[] = [];
  const informer = new Informer(client, {
    path: '/things',
    pageSize: 2,
    handlers: { onAdd: (o) => log.push(`add ${name(o)}`), onUpdate: (a, b) => log.push(`update ${name(a)} ${a.metadata?.resourceVersion}->${b.metadata?.resourceVersion}`), onDelete: (o) => log.push(`delete ${name(o)}`) },
  });
  try {
    for (const n of ['a', 'b', 'c', 'd', 'e']) cluster.store.write('ADDED', { metadata: { name: n } });
    await informer.start();
    assert.equal(cluster.replicas.flatMap((r) => r.requests).filter((q) => q.url.includes('limit=2')).length, 3);
    assert.deepEqual(informer.list().map(name), ['a', 'b', 'c', 'd', 'e']);
    assert.equal(informer.resourceVersion, '5');
    cluster.store.write('MODIFIED', { ...cluster.store.objects.get('a')!, data: 1 });
    cluster.store.write('DELETED', cluster.store.objects.get('b')!);
    cluster.store.write('ADDED', { metadata: { name: 'f' } });
    await eventually(() => informer.resourceVersion === '8', 'cache caught up');
    assert.deepEqual(informer.list(), [...cluster.store.objects.keys()].sort().map((k) => cluster.store.objects.get(k)));
    assert.deepEqual(log.slice(5), ['update a 1->6', 'delete b', 'add f']);
  } finally {
    await informer.stop();
    await client.close();
    await cluster.stop();
  }
});

test('after a 410 the informer relists with replace semantics and synthesizes deletes for vanished objects', async () => {
  const cluster = await startFakeCluster(2);
  const client = new OrchClient({ servers: cluster.replicas.map((r) => r.url), clock: fastClock });
  const log: string[] = [];
  const informer = new Informer(client, {
    path: '/things',
    handlers: { onAdd: (o) => log.push(`add ${name(o)}`), onUpdate: (a) => log.push(`update ${name(a)}`), onDelete: (o) => log.push(`delete ${name(o)}`) },
  });
  try {
    for (const n of ['a', 'b', 'c']) cluster.store.write('ADDED', { metadata: { name: n } });
    await informer.start();
    // The informer misses these events, then history is compacted past its version.
    cluster.store.paused = true;
    cluster.store.write('DELETED', cluster.store.objects.get('a')!);
    cluster.store.write('MODIFIED', { ...cluster.store.objects.get('b')!, data: 2 });
    cluster.store.write('ADDED', { metadata: { name: 'd' } });
    cluster.store.compactedRv = cluster.store.rv;
    cluster.store.paused = false;
    log.length = 0;
    for (const r of cluster.replicas) r.dropConnections();
    await eventually(() => informer.resourceVersion === '6', 'relisted');
    assert.deepEqual(log.sort(), ['add d', 'delete a', 'update b']);
    assert.deepEqual(informer.list().map(name), ['b', 'c', 'd']);
    assert.equal(informer.get('a'), undefined);
  } finally {
    await informer.stop();
    await client.close();
    await cluster.stop();
  }
});

test('an informer whose watch gave up starts it again from its last version and catches up', async () => {
  const cluster = await startFakeCluster(1);
  const replica = cluster.replicas[0]!;
  const client = new OrchClient({ servers: [replica.url], clock: fastClock });
  const restarts: unknown[] = [];
  const errors: unknown[] = [];
  const streams: (string | undefined)[] = [];
  const informer = new Informer(client, {
    path: '/things', reconnectAttemptsMax: 2,
    onRestart: (e) => restarts.push(e), onError: (e) => errors.push(e), onStream: (s) => streams.push(s.resourceVersion),
  });
  try {
    for (const n of ['a', 'b']) cluster.store.write('ADDED', { metadata: { name: n } });
    await informer.start();
    await eventually(() => streams.length === 1, 'first stream');
    replica.faults = { status: 500 };
    replica.dropConnections();
    await eventually(() => restarts.length >= 2, 'the watch gave up and was started again');
    replica.faults = {};
    cluster.store.write('ADDED', { metadata: { name: 'c' } });
    await eventually(() => informer.resourceVersion === '3', 'caught up');
    assert.deepEqual(informer.list().map(name), ['a', 'b', 'c']);
    assert.ok(streams.every((rv) => rv === '2'), `every stream resumed from the last version: ${streams.join(',')}`);
    assert.deepEqual(errors, []);
  } finally {
    await informer.stop();
    await client.close();
    await cluster.stop();
  }
});

test('an informer stops and reports an error a retry cannot fix', async () => {
  const cluster = await startFakeCluster(1);
  const replica = cluster.replicas[0]!;
  const client = new OrchClient({ servers: [replica.url], clock: fastClock });
  const errors: unknown[] = [];
  const informer = new Informer(client, { path: '/things', onError: (e) => errors.push(e) });
  try {
    await informer.start();
    replica.faults = { status: 403 };
    replica.dropConnections();
    await eventually(() => errors.length === 1, 'the error was reported');
    assert.equal((errors[0] as { status?: number }).status, 403);
  } finally {
    await informer.stop();
    await client.close();
    await cluster.stop();
  }
});
