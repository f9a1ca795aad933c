import { test } from 'node:test';
import assert from 'node:assert/strict';
import { OrchClient } from '../../../internal/client/client.ts';
import { JsonDocumentSplitter } from '../../../internal/client/json-stream.ts';
import { WatchError } from '../../../internal/client/errors.ts';
import { watch, type WatchEvent } from '../../../internal/client/watch.ts';
import { startFakeCluster, fastClock } from './fake-api.ts';

type Cluster = Awaited<ReturnType<typeof startFakeCluster>>;

async function withWatch(count: number, body: (cluster: Cluster, client: OrchClient, abort: AbortController) => Promise<void>): Promise<void> {
  const cluster = await startFakeCluster(count);
  const client = new OrchClient({ servers: cluster.replicas.map((r) => r.url), clock: fastClock });
  const abort = new AbortController();
  try {
    await body(cluster, client, abort);
  } finally {
    abort.abort();
    await client.close();
    await cluster.stop();
  }
}

/** Collects events until `until` says stop, running `after` once the first `n` have arrived. */
async function collect(events: AsyncGenerator<WatchEvent>, until: (seen: WatchEvent[]) => boolean, steps: Array<{ at: number; run: () => void }> = []): Promise<WatchEvent[]> {
  const seen: WatchEvent[] = [];
  for (const step of steps) if (step.at === 0) step.run();
  for await (const event of events) {
    seen.push(event);
    for (const step of steps) if (step.at === seen.length) step.run();
    if (until(seen)) break;
  }
  return seen;
}

const rvs = (events: WatchEvent[]) => events.map((e) => e.resourceVersion);

test('the JSON splitter finds documents across arbitrary chunk boundaries', () => {
  const text = '{"a":"x}{\\"y"}\n{"b":[1,{"c":2}]}{"d":"é"}\n';
  const bytes = Buffer.from(text);
  for (const size of [1, 2, 3, 7, bytes.length]) {
    const splitter = new JsonDocumentSplitter();
    const documents: unknown[] = [];
    for (let i = 0; i < bytes.length; i += size) documents.push(...splitter.push(bytes.subarray(i, i + size)));
    assert.deepEqual(documents, [{ a: 'x}{"y' }, { b: [1, { c: 2 }] }, { d: 'é' }], `chunk size ${size}`);
    assert.equal(splitter.hasPartialDocument(), false);
  }
});

test('a watch delivers events in order when documents are split across chunks', async () => {
  await withWatch(1, async ({ store, replicas }, client, abort) => {
    replicas[0]!.faults = { watchChunkBytes: 5 };
    for (const name of ['a', 'b', 'c']) store.write('ADDED', { metadata: { name } });
    const events = await collect(watch(client, { path: '/things', resourceVersion: '0', signal: abort.signal }), (s) => s.length === 4, [{ at: 3, run: () => store.write('DELETED', store.objects.get('a')!) }]);
    assert.deepEqual(events.map((e) => e.type), ['ADDED', 'ADDED', 'ADDED', 'DELETED']);
    assert.deepEqual(rvs(events), ['1', '2', '3', '4']);
  });
});

test('a broken watch resumes on another endpoint from the last delivered resourceVersion', async () => {
  await withWatch(3, async ({ store, replicas }, client, abort) => {
    store.write('ADDED', { metadata: { name: 'a' } });
    const streams: Array<{ endpoint: string; resourceVersion: string | undefined }> = [];
    const onStream = (info: { endpoint: string; resourceVersion: string | undefined }) => void streams.push(info);
    const events = await collect(watch(client, { path: '/things', resourceVersion: '0', signal: abort.signal, onStream }), (s) => s.length === 3, [
      { at: 1, run: () => { const serving = replicas.find((r) => r.requests.some((q) => q.url.includes('watch=1')))!; serving.dropConnections(); setTimeout(() => { store.write('ADDED', { metadata: { name: 'b' } }); store.write('ADDED', { metadata: { name: 'c' } }); }, 50); } },
    ]);
    assert.deepEqual(rvs(events), ['1', '2', '3'], 'no gap, no duplicate');
    const watchRequests = replicas.map((r) => r.requests.filter((q) => q.url.includes('watch=1')));
    assert.equal(watchRequests.filter((w) => w.length > 0).length, 2, 'resumed on a second endpoint');
    const resumed = watchRequests.flat().map((q) => new URL(q.url, 'http://x').searchParams.get('resourceVersion'));
    assert.deepEqual(resumed.sort(), ['0', '1']);
    assert.deepEqual(streams.map((x) => x.resourceVersion), ['0', '1'], 'each stream is reported with its start version');
    assert.notEqual(streams[0]!.endpoint, streams[1]!.endpoint);
  });
});

test('a resume starts from the last bookmark resourceVersion', async () => {
  await withWatch(2, async ({ store, replicas }, client, abort) => {
    store.write('ADDED', { metadata: { name: 'a' } });
    // Versions 2..7 went to other collections: only the bookmark tells the watch about them.
    for (const r of replicas) r.faults = { bookmarkAfterReplay: true, bookmarkRv: '7', closeWatchAfterEvents: 1 };
    const events = await collect(watch(client, { path: '/things', resourceVersion: '0', allowBookmarks: true, signal: abort.signal }), (s) => s.length === 3);
    assert.deepEqual(events.map((e) => `${e.type}@${e.resourceVersion}`), ['ADDED@1', 'BOOKMARK@7', 'BOOKMARK@7']);
    const urls = replicas.flatMap((r) => r.requests).filter((q) => q.url.includes('watch=1')).map((q) => new URL(q.url, 'http://x').searchParams);
    assert.equal(urls[0]!.get('allowWatchBookmarks'), 'true');
    assert.deepEqual(urls.map((u) => u.get('resourceVersion')).sort().slice(0, 3), ['0', '1', '7']);
  });
});

for (const asErrorEvent of [false, true]) {
  test(`a 410 Gone ${asErrorEvent ? 'ERROR event' : 'answer'} makes the watch relist and emit RESYNC`, async () => {
    await withWatch(1, async ({ store, replicas }, client, abort) => {
      for (const name of ['a', 'b', 'c']) store.write('ADDED', { metadata: { name } });
      store.write('DELETED', store.objects.get('b')!);
      store.compactedRv = 3;
      replicas[0]!.faults = { goneAsErrorEvent: asErrorEvent };
      const relisted: boolean[] = [];
      const onStream = (info: { afterRelist: boolean }) => void relisted.push(info.afterRelist);
      const events = await collect(watch(client, { path: '/things', resourceVersion: '1', relistPageSize: 1, signal: abort.signal, onStream }), (s) => s.length === 2, [
        { at: 1, run: () => void setTimeout(() => store.write('ADDED', { metadata: { name: 'd' } }), 20) },
      ]);
      const first = events[0]!;
      assert.equal(first.type, 'RESYNC');
      assert.equal(first.resourceVersion, '4');
      assert.deepEqual(first.type === 'RESYNC' ? first.objects.map((o) => o.metadata?.name) : [], ['a', 'c']);
      assert.deepEqual(events[1], { type: 'ADDED', resourceVersion: '5', object: store.objects.get('d') });
      assert.equal(relisted.at(-1), true, 'the stream after the relist says so');
    });
  });
}

test('a watch gives up with WatchError after its reconnection budget when no endpoint answers', async () => {
  const cluster = await startFakeCluster(1);
  const url = cluster.replicas[0]!.url;
  await cluster.stop();
  const client = new OrchClient({ servers: [url], clock: fastClock });
  try {
    const events = watch(client, { path: '/things', resourceVersion: '0', reconnectAttemptsMax: 2 });
    await assert.rejects(events.next(), WatchError);
  } finally {
    await client.close();
  }
});

test('a watch stream silent past its lifetime counts as broken and the watch resumes elsewhere', async () => {
  await withWatch(2, async ({ store, replicas }, client, abort) => {
    replicas[0]!.faults = { silentWatch: true };
    store.write('ADDED', { metadata: { name: 'a' } });
    const streams: string[] = [];
    const events = watch(client, { path: '/things', resourceVersion: '0', signal: abort.signal, timeoutSeconds: 7, silenceTimeoutMs: 200, onStream: (s) => streams.push(s.endpoint) });
    const seen = await collect(events, (s) => s.length === 1);
    assert.deepEqual(rvs(seen), ['1']);
    assert.deepEqual(streams, [replicas[0]!.url, replicas[1]!.url]);
    const query = new URL(replicas[0]!.requests.find((q) => q.url.includes('watch=1'))!.url, 'http://x').searchParams;
    assert.equal(query.get('timeoutSeconds'), '7');
  });
});

test('a watch asks the server for a stream lifetime between 5 and 10 minutes by default', async () => {
  await withWatch(1, async ({ store, replicas }, client, abort) => {
    store.write('ADDED', { metadata: { name: 'a' } });
    await collect(watch(client, { path: '/things', resourceVersion: '0', signal: abort.signal }), (s) => s.length === 1);
    const lifetime = Number(new URL(replicas[0]!.requests.find((q) => q.url.includes('watch=1'))!.url, 'http://x').searchParams.get('timeoutSeconds'));
    assert.ok(lifetime >= 300 && lifetime <= 600, `timeoutSeconds=${lifetime}`);
  });
});

test('streams the server ends at their lifetime without events do not count toward giving up', async () => {
  await withWatch(1, async ({ store }, client, abort) => {
    const streams: string[] = [];
    const events = watch(client, { path: '/things', resourceVersion: '0', signal: abort.signal, timeoutSeconds: 1, reconnectAttemptsMax: 1, onStream: (s) => streams.push(s.endpoint) });
    setTimeout(() => store.write('ADDED', { metadata: { name: 'late' } }), 3_500);
    const seen = await collect(events, (s) => s.length === 1);
    assert.deepEqual(rvs(seen), ['1']);
    assert.ok(streams.length >= 3, `idle streams ended and were reopened: ${streams.length}`);
  });
});
