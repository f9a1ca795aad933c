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
