// The client library's Informer against real replica processes: it lists a large collection in
// chunks, watches from the list's resourceVersion, and keeps its cache exact while other clients
// write through the other replicas, across a SIGKILL of the replica it watches (the stream breaks),
// a SIGSTOP of it (the stream goes silent), resuming each time on another replica from the last
// version it saw, and across lost history (410: it relists and replaces its cache).
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { OrchClient, type Query, type RequestOptions } from '../../internal/client/client.ts';
import { Informer } from '../../internal/client/informer.ts';
import { objectKey, type KubeObject } from '../../internal/client/objects.ts';
import type { WatchEvent, WatchStreamInfo } from '../../internal/client/watch.ts';
import { LinkProxy } from '../chaos/link-proxy.ts';
import type { TestApiClient } from '../support/api-client.ts';
import { startClusterFixture, type ClusterFixture } from '../support/cluster-fixture.ts';

const collection = '/api/v1/namespaces/default/configmaps';
const selector = 'test=informer';
const preCreated = 300;
const pageSize = 40;

interface ConfigMap extends KubeObject {
  readonly data?: Record<string, string>;
}

/** An OrchClient that counts the pages of chunked lists it sends. */
class CountingClient extends OrchClient {
  chunkedPages = 0;
  override list<T = unknown>(path: string, options: RequestOptions = {}): Promise<T> {
    const query: Query = options.query ?? {};
    if (query.limit === pageSize) this.chunkedPages += 1;
    return super.list<T>(path, options);
  }
}

/** What the informer saw: each stream it opened and the events delivered on it. */
interface Recording {
  readonly streams: WatchStreamInfo[];
  /** Events of stream i (RESYNCs are recorded on the stream they precede). */
  readonly events: WatchEvent<ConfigMap>[][];
  /** Broken invariants noticed while events were applied (an ADDED for a cached key, ...). */
  readonly anomalies: string[];
}

function record(cached: (key: string) => ConfigMap | undefined): { recording: Recording; onEvent: (e: WatchEvent<ConfigMap>) => void; onStream: (s: WatchStreamInfo) => void } {
  const recording: Recording = { streams: [], events: [[]], anomalies: [] };
  return {
    recording,
    onStream: (stream) => {
      recording.streams.push(stream);
      if (recording.streams.length > 1) recording.events.push([]);
    },
    onEvent: (event) => {
      recording.events[recording.events.length - 1]?.push(event);
      if (event.type === 'RESYNC' || event.type === 'BOOKMARK') return;
      const current = cached(objectKey(event.object));
      if (event.type === 'ADDED' && current !== undefined) recording.anomalies.push(`ADDED ${objectKey(event.object)}@${event.resourceVersion} while cached`);
      if (event.type !== 'ADDED' && current === undefined) recording.anomalies.push(`${event.type} ${objectKey(event.object)}@${event.resourceVersion} while not cached`);
    },
  };
}

/** name -> "resourceVersion data" of every object, the shape the cache and a fresh list are compared in. */
function summary(objects: readonly ConfigMap[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const o of objects) out[o.metadata?.name ?? '?'] = `${o.metadata?.resourceVersion ?? '?'} ${JSON.stringify(o.data ?? {})}`;
  return out;
}

async function freshList(client: TestApiClient): Promise<{ items: ConfigMap[]; resourceVersion: string }> {
  const res = await client.call('GET', `${collection}?labelSelector=${encodeURIComponent(selector)}`);
  assert.equal(res.status, 200, res.text);
  const list = res.json as { items: ConfigMap[]; metadata: { resourceVersion: string } };
  return { items: list.items, resourceVersion: list.metadata.resourceVersion };
}

/** Waits until the informer's cache equals a fresh consistent list; returns both summaries. */
async function converge(informer: Informer<ConfigMap>, client: TestApiClient): Promise<{ cache: Record<string, string>; server: Record<string, string> }> {
  let cache: Record<string, string> = {};
  let server: Record<string, string> = {};
  for (let i = 0; i < 150; i += 1) {
    server = summary((await freshList(client)).items);
    cache = summary(informer.list());
    if (JSON.stringify(cache) === JSON.stringify(server)) break;
    await sleep(200);
  }
  return { cache, server };
}

function configMap(name: string, value: string): ConfigMap {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels: { test: 'informer' } }, data: { value } };
}

async function preCreate(clients: readonly TestApiClient[], count: number): Promise<void> {
  let next = 0;
  const worker = async (w: number): Promise<void> => {
    for (let i = next++; i < count; i = next++) {
      const client = clients[(w + i) % clients.length];
      assert.ok(client);
      const res = await client.call('POST', collection, { body: configMap(`cm-${i}`, `initial-${i}`) });
      assert.equal(res.status, 201, res.text);
    }
  };
  await Promise.all(Array.from({ length: 8 }, (_, w) => worker(w)));
}

/** One write: a create, an update, a delete, or a label change that moves the object out of or into the selector. */
function writeOne(client: TestApiClient, n: number, target: string): ReturnType<TestApiClient['call']> {
  const merge = (body: unknown) => client.call('PATCH', `${collection}/${target}`, { body, contentType: 'application/merge-patch+json' });
  switch (n % 6) {
    case 0: return client.call('POST', collection, { body: configMap(`new-${n}`, `created-${n}`) });
    case 1: case 2: return merge({ data: { value: `patched-${n}` } });
    case 3: return client.call('DELETE', `${collection}/${target}`);
    case 4: return merge({ metadata: { labels: { test: 'elsewhere' } }, data: { value: `out-${n}` } });
    default: return merge({ metadata: { labels: { test: 'informer' } }, data: { value: `in-${n}` } });
  }
}

/** Creates, updates and deletes objects through `clients` until `stop.done`; failures (a dying leader, a lost race) are fine. */
async function writeUntil(clients: readonly TestApiClient[], stop: { done: boolean }, counts: { ok: number; failed: number }): Promise<void> {
  let serial = 0;
  const worker = async (w: number): Promise<void> => {
    while (!stop.done) {
      const client = clients[serial % clients.length];
      assert.ok(client);
      const n = serial++;
      const target = `cm-${(n * 7919 + w) % preCreated}`;
      const res = await writeOne(client, n, target).catch(() => null);
      if (res !== null && res.status < 300) counts.ok += 1;
      else counts.failed += 1;
      if (res === null || res.status >= 500) await sleep(50);
    }
  };
  await Promise.all(Array.from({ length: 4 }, (_, w) => worker(w)));
}

async function sigkill(fixture: ClusterFixture, name: string): Promise<void> {
  const child = fixture.cluster.replicas.find((r) => r.spec.name === name)?.process;
  if (!child) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  fixture.cluster.signal(name, 'SIGKILL');
  await exited;
}

async function until(check: () => boolean, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

/** The version of the last event delivered on a stream (an object event's or a bookmark's). */
function lastVersion(events: readonly WatchEvent<ConfigMap>[]): string | undefined {
  return events[events.length - 1]?.resourceVersion;
}

/**
 * Object events strictly increase in version from `startVersion` (none repeated or reordered);
 * bookmarks never go back; a RESYNC restarts the sequence at its own version.
 */
function assertOrdered(events: readonly WatchEvent<ConfigMap>[], startVersion: string, what: string): void {
  let last = Number(startVersion);
  for (const event of events) {
    const version = Number(event.resourceVersion);
    if (event.type === 'BOOKMARK') assert.ok(version >= last, `${what}: bookmark ${version} after ${last}`);
    else if (event.type !== 'RESYNC') assert.ok(version > last, `${what}: ${event.type} ${objectKey(event.object)} at ${version} after ${last}`);
    last = version;
  }
}

/**
 * The resume scenario: an informer lists, watches one replica while the others take writes, then
 * that replica is SIGKILLed (its streams break) or SIGSTOPped (its streams go silent); the watch
 * must resume on another replica from the last version it saw, and the cache must end up exact.
 */
async function resumeScenario(t: TestContext, fault: 'SIGKILL' | 'SIGSTOP'): Promise<void> {
  const fixture = await startClusterFixture();
  t.after(() => fixture.close());
  await preCreate(fixture.clients, preCreated);

  // The leader goes last: the round-robin over 8 list pages then puts the watch on it, so the
  // fault below also costs the cluster its leader while the writers keep going (the harder case).
  const leader = await fixture.leader();
  const servers = [...fixture.cluster.replicas].sort((a, b) => Number(a.spec.name === leader) - Number(b.spec.name === leader)).map((r) => r.apiUrl);
  const client = new CountingClient({ servers, caPem: fixture.cluster.caPem, token: fixture.cluster.adminToken });
  t.after(() => client.close());
  const { recording, onEvent, onStream } = record((key) => informer.get(key));
  const informer = new Informer<ConfigMap>(client, {
    path: collection, pageSize, query: { labelSelector: selector }, onEvent, onStream,
    // A paused replica neither sends nor closes: only the client's silence timeout notices it.
    ...(fault === 'SIGSTOP' ? { silenceTimeoutMs: 3_000 } : {}),
    onError: (e) => recording.anomalies.push(`informer stopped: ${String(e)}`),
  });
  t.after(() => informer.stop());

  await informer.start();
  const listVersion = informer.resourceVersion;
  assert.equal(informer.list().length, preCreated);
  assert.ok(client.chunkedPages >= Math.ceil(preCreated / pageSize), `listed in ${client.chunkedPages} chunks of ${pageSize}`);
  await until(() => recording.streams.length === 1, 'the first watch stream');
  const firstStream = recording.streams[0];
  assert.equal(firstStream?.resourceVersion, listVersion, 'the watch starts at the list version');
  const watched = fixture.cluster.replicas.find((r) => r.apiUrl === firstStream.endpoint);
  assert.ok(watched, `watched endpoint ${firstStream.endpoint} is a replica`);
  const writerClients = fixture.clients.filter((c) => c.baseUrl !== watched.apiUrl);

  const stop = { done: false };
  const counts = { ok: 0, failed: 0 };
  const writing = writeUntil(writerClients, stop, counts);
  try {
    await until(() => (recording.events[0]?.length ?? 0) >= 150, 'events on the first stream');
    if (fault === 'SIGKILL') await sigkill(fixture, watched.spec.name);
    else fixture.cluster.signal(watched.spec.name, 'SIGSTOP');
    await until(() => recording.streams.length >= 2, 'the watch to resume');
    const resumed = recording.streams[1];
    assert.ok(resumed);
    assert.notEqual(resumed.endpoint, watched.apiUrl, 'the watch resumed on another replica');
    assert.equal(resumed.afterRelist, false, 'the watch resumed without a relist');
    assert.equal(resumed.resourceVersion, lastVersion(recording.events[0] ?? []), 'resumed from the last version seen');
    await until(() => (recording.events[1]?.length ?? 0) >= 150, 'events on the resumed stream');
  } finally {
    stop.done = true;
    await writing;
    if (fault === 'SIGSTOP') fixture.cluster.signal(watched.spec.name, 'SIGCONT');
  }
  t.diagnostic(`writes: ${counts.ok} succeeded, ${counts.failed} failed; streams: ${recording.streams.length}; ${fault} ${watched.spec.name} (leader was ${leader ?? 'unknown'})`);

  const live = writerClients[0];
  assert.ok(live);
  const { cache, server } = await converge(informer, live);
  assert.deepEqual(cache, server, 'the informer cache equals a fresh consistent list');
  assert.deepEqual(recording.anomalies, []);
  assert.ok(recording.events.every((events) => events.every((e) => e.type !== 'RESYNC')), 'no relist was needed');
  for (const [i, events] of recording.events.entries()) assertOrdered(events, recording.streams[i]?.resourceVersion ?? '', `stream ${i}`);
  assertOrdered(recording.events.flat(), listVersion, 'across streams');
}

test('an informer resumes on another replica after the watched one is SIGKILLed and its cache equals a fresh list', { timeout: 600_000 }, async (t) => {
  await resumeScenario(t, 'SIGKILL');
});

test('an informer notices the watched replica was paused (SIGSTOP), resumes on another and its cache equals a fresh list', { timeout: 600_000 }, async (t) => {
  await resumeScenario(t, 'SIGSTOP');
});

test('an informer whose history was compacted while it was cut off relists and replaces its cache', { timeout: 300_000 }, async (t) => {
  const fixture = await startClusterFixture({ replicas: 1, extraArgs: ['--watch-history-retention', '2s'] });
  t.after(() => fixture.close());
  const replica = fixture.cluster.replicas[0];
  const api = fixture.clients[0];
  assert.ok(replica && api);
  await preCreate(fixture.clients, 20);
  const proxy = await LinkProxy.start(new URL(replica.apiUrl).host);
  t.after(() => proxy.close());

  const client = new OrchClient({ servers: [`https://${proxy.address}`], caPem: fixture.cluster.caPem, token: fixture.cluster.adminToken });
  t.after(() => client.close());
  const { recording, onEvent, onStream } = record((key) => informer.get(key));
  const deleted: string[] = [];
  const informer = new Informer<ConfigMap>(client, {
    path: collection, pageSize: 7, query: { labelSelector: selector }, onEvent, onStream, reconnectAttemptsMax: 1000,
    handlers: { onDelete: (o) => deleted.push(o.metadata?.name ?? '?') },
    onError: (e) => recording.anomalies.push(`informer stopped: ${String(e)}`),
  });
  t.after(() => informer.stop());
  await informer.start();
  await until(() => recording.streams.length === 1, 'the first watch stream');
  const cutAt = informer.resourceVersion;

  proxy.cut('drop');
  for (let i = 0; i < 5; i += 1) assert.equal((await api.call('DELETE', `${collection}/cm-${i}`)).status, 200);
  assert.equal((await api.call('POST', collection, { body: configMap('late', 'x') })).status, 201);
  // History at the informer's version is gone once an Exact list there answers 410.
  for (let i = 0; ; i += 1) {
    const res = await api.call('GET', `${collection}?limit=1&resourceVersion=${cutAt}`);
    if (res.status === 410) break;
    assert.ok(i < 300, `history at ${cutAt} was never compacted (last status ${res.status})`);
    await sleep(100);
  }
  proxy.heal();

  await until(() => recording.streams.some((s) => s.afterRelist), 'a relist and a new stream', 60_000);
  const { cache, server } = await converge(informer, api);
  assert.deepEqual(cache, server, 'the relisted cache equals a fresh list');
  assert.deepEqual(deleted.sort(), ['cm-0', 'cm-1', 'cm-2', 'cm-3', 'cm-4'], 'vanished objects got synthesized deletes');
  assert.deepEqual(recording.anomalies, []);
  assert.ok(recording.events.flat().some((e) => e.type === 'RESYNC'), 'the watch reported a RESYNC');
  assertOrdered(recording.events.flat(), cutAt, 'across the relist');
});
