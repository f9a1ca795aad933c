// Watch semantics on one real 3-process cluster, through the leader and through a follower, over
// HTTP/1.1 and HTTP/2: event types, synthetic ADDED events per the watch table, bookmarks,
// sendInitialEvents, timeoutSeconds, single-object watches, selector transitions and a start
// beyond the current revision. Writes go through another replica than the one watched.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { TestApiClient } from '../support/api-client.ts';
import { startClusterFixture, type ClusterFixture } from '../support/cluster-fixture.ts';
import type { RawWatch, RawWatchEvent } from '../support/raw-client.ts';
import { closeTargets, roleTargets, type RoleTarget } from '../support/role-targets.ts';

const cmPath = (ns: string, name = ''): string => `/api/v1/namespaces/${ns}/configmaps${name === '' ? '' : `/${name}`}`;

async function write(writer: TestApiClient, method: 'POST' | 'PUT' | 'DELETE', ns: string, name: string, labels: Record<string, string> = {}, value = ''): Promise<number> {
  const body = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels }, data: { v: value } };
  const res = await writer.call(method, method === 'POST' ? cmPath(ns) : cmPath(ns, name), method === 'DELETE' ? {} : { body });
  assert.ok(res.status >= 200 && res.status < 300, res.text);
  const obj = res.json as { metadata?: { resourceVersion?: string }; details?: unknown };
  return Number(obj.metadata?.resourceVersion ?? 0);
}

const summary = (events: readonly RawWatchEvent[]): string[][] => events.map((e) => [e.type, e.object.metadata?.name ?? '']);
const rvOf = (e: RawWatchEvent | undefined): number => Number(e?.object.metadata?.resourceVersion);

async function withWatches<T>(open: Promise<RawWatch>[], fn: (watches: RawWatch[]) => Promise<T>): Promise<T> {
  const watches = await Promise.all(open);
  try {
    for (const w of watches) assert.equal(w.status, 200);
    return await fn(watches);
  } finally {
    for (const w of watches) w.close();
  }
}

describe('watch semantics through the leader and a follower', () => {
  let fixture: ClusterFixture;
  let targets: RoleTarget[] = [];

  before(async () => {
    fixture = await startClusterFixture();
    targets = await roleTargets(fixture, 'watch');
    for (const t of targets) {
      for (const name of [t.namespace, `${t.namespace}-noise`]) {
        const res = await t.writer.call('POST', '/api/v1/namespaces', { body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name } } });
        assert.equal(res.status, 201, res.text);
      }
    }
  });

  after(async () => {
    closeTargets(targets);
    await fixture?.close();
  });

  // The four targets have a namespace each and run side by side (most of each one's time is waiting
  // for bookmarks and timeouts); each target's cases run in order.
  describe('every target', { concurrency: true }, () => {
    for (const role of ['leader', 'follower'] as const) {
      for (const protocol of ['http/1.1', 'h2'] as const) {
        const target = (): RoleTarget => targets.find((x) => x.role === role && x.protocol === protocol) ?? assert.fail('no target');
        const on = `through the ${role} over ${protocol}`;
        describe(on, { concurrency: 1 }, () => {
          it(`ADDED, MODIFIED, DELETED; synthetic ADDED for unset and "0", none for an explicit version (${on})`, async () => {
            const { client, writer, namespace: ns } = target();
            const sel = 'labelSelector=grp%3Dbasic';
            const rv1 = await write(writer, 'POST', ns, 'w1', { grp: 'basic' });
            // A consistent read first: "0" (Any) may otherwise be served before this replica applied w1.
            assert.equal((await client.call('GET', cmPath(ns, 'w1'))).status, 200);
            await withWatches([client.watch(`${cmPath(ns)}?watch=1&${sel}`), client.watch(`${cmPath(ns)}?watch=1&resourceVersion=0&${sel}`), client.watch(`${cmPath(ns)}?watch=1&resourceVersion=${rv1}&${sel}`)], async ([unset, zero, exact]) => {
              assert.match(String(unset?.headers['content-type']), /^application\/json/);
              if (protocol === 'http/1.1') assert.equal(unset?.headers['transfer-encoding'], 'chunked');
              assert.deepEqual(summary(await unset!.next(1)), [['ADDED', 'w1']], 'synthetic ADDED (unset)');
              assert.deepEqual(summary(await zero!.next(1)), [['ADDED', 'w1']], 'synthetic ADDED ("0")');
              const created = await write(writer, 'POST', ns, 'w2', { grp: 'basic' });
              const updated = await write(writer, 'PUT', ns, 'w2', { grp: 'basic' }, 'changed');
              await write(writer, 'DELETE', ns, 'w2');
              const expected = [['ADDED', 'w2'], ['MODIFIED', 'w2'], ['DELETED', 'w2']];
              for (const w of [unset!, zero!, exact!]) {
                const events = await w.next(3);
                assert.deepEqual(summary(events), expected);
                assert.deepEqual(events.slice(0, 2).map(rvOf), [created, updated]);
                assert.ok(rvOf(events[2]) > updated, 'DELETED carries the deletion revision');
              }
              assert.equal(exact!.events.length, 3, 'no synthetic events for an explicit version');
            });
          });

          it(`BOOKMARK only with allowWatchBookmarks, periodic, carrying only metadata.resourceVersion (${on})`, async () => {
            const { client, writer, namespace: ns } = target();
            const start = await write(writer, 'POST', ns, 'b0', { grp: 'bm' });
            await withWatches([client.watch(`${cmPath(ns)}?watch=1&resourceVersion=${start}&allowWatchBookmarks=true`), client.watch(`${cmPath(ns)}?watch=1&resourceVersion=${start}`), client.watch(`${cmPath(`${ns}-noise`)}?watch=1&resourceVersion=${start}&allowWatchBookmarks=true&labelSelector=grp%3Dnothing`)], async ([withBm, without, filtered]) => {
              // Bookmarks announce progress the watch did not otherwise see: writes elsewhere advance the store.
              let noise = 0;
              const stop = new AbortController();
              const writing = (async () => {
                while (!stop.signal.aborted) {
                  await write(writer, 'POST', `${ns}-noise`, `n${noise++}`);
                  await sleep(500);
                }
              })();
              try {
                const first = await withBm!.until((e) => e.type === 'BOOKMARK', 30_000);
                const second = await withBm!.until((e) => e.type === 'BOOKMARK', 30_000);
                assert.ok(rvOf(second) > rvOf(first) && rvOf(first) > start, 'periodic, with advancing versions');
                assert.equal(first.object.kind, 'ConfigMap');
                assert.deepEqual(Object.keys(first.object).sort(), ['apiVersion', 'kind', 'metadata']);
                assert.deepEqual(Object.keys(first.object.metadata ?? {}), ['resourceVersion']);
                // Every noise write is in this watch's prefix and filtered out by its selector.
                const progress = await filtered!.until((e) => e.type === 'BOOKMARK', 30_000);
                assert.ok(rvOf(progress) > start, 'a selective watch still learns how far it got');
              } finally {
                stop.abort();
                await writing;
              }
              assert.deepEqual(without!.events.filter((e) => e.type === 'BOOKMARK'), [], 'none without allowWatchBookmarks');
            });
          });

          it(`sendInitialEvents: ADDED events, then the initial-events-end BOOKMARK only when bookmarks are allowed (${on})`, async () => {
            const { client, writer, namespace: ns } = target();
            const sel = 'labelSelector=grp%3Dinit';
            const rv = await write(writer, 'POST', ns, 'i1', { grp: 'init' });
            const base = `${cmPath(ns)}?watch=1&${sel}&sendInitialEvents=true&resourceVersionMatch=NotOlderThan`;
            await withWatches([client.watch(`${base}&allowWatchBookmarks=true`), client.watch(base), client.watch(`${base}&resourceVersion=${rv}`), client.watch(`${cmPath(ns)}?watch=1&${sel}&sendInitialEvents=false&resourceVersionMatch=NotOlderThan`)], async ([bm, noBm, fromRv, noInitial]) => {
              const [added, end] = await bm!.next(2);
              assert.deepEqual(summary([added!]), [['ADDED', 'i1']]);
              assert.equal(end?.type, 'BOOKMARK');
              assert.deepEqual(end?.object.metadata?.annotations, { 'k8s.io/initial-events-end': 'true' });
              assert.ok(rvOf(end) >= rv);
              assert.deepEqual(summary(await noBm!.next(1)), [['ADDED', 'i1']]);
              assert.deepEqual(summary(await fromRv!.next(1)), [['ADDED', 'i1']], 'NotOlderThan a version still sends the state');
              await write(writer, 'POST', ns, 'i2', { grp: 'init' });
              assert.deepEqual(summary(await bm!.next(1)), [['ADDED', 'i2']]);
              assert.deepEqual(summary(await noBm!.next(1)), [['ADDED', 'i2']], 'no BOOKMARK without allowWatchBookmarks');
              assert.deepEqual(summary(await fromRv!.next(1)), [['ADDED', 'i2']]);
              assert.deepEqual(summary(await noInitial!.next(1)), [['ADDED', 'i2']], 'sendInitialEvents=false: changes only');
            });
            const bad = await client.call('GET', `${cmPath(ns)}?watch=1&sendInitialEvents=true`);
            assert.equal(bad.status, 422, bad.text);
            assert.match((bad.json as { message: string }).message, /resourceVersionMatch/);
            const badMatch = await client.call('GET', `${cmPath(ns)}?watch=1&resourceVersion=1&resourceVersionMatch=NotOlderThan`);
            assert.equal(badMatch.status, 422, 'resourceVersionMatch on a watch needs sendInitialEvents');
          });

          it(`timeoutSeconds ends the stream (${on})`, async () => {
            const { client, namespace: ns } = target();
            const w = await client.watch(`${cmPath(ns)}?watch=1&timeoutSeconds=1&labelSelector=grp%3Dnone`);
            try {
              const ended = await Promise.race([w.ended.then(() => true), sleep(15_000, undefined, { ref: false }).then(() => false)]);
              assert.ok(ended, 'the server ended the stream');
            } finally {
              w.close();
            }
          });

          it(`one object: fieldSelector metadata.name, and the legacy watch path of the object (${on}); the object path with watch=1 is a get, as kube-apiserver serves it`, async () => {
            const { client, writer, namespace: ns } = target();
            await write(writer, 'POST', ns, 'one', { grp: 'one' });
            assert.equal((await client.call('GET', cmPath(ns, 'one'))).status, 200);
            const named = await client.call('GET', `${cmPath(ns, 'one')}?watch=1`);
            assert.equal((named.json as { kind?: string }).kind, 'ConfigMap');
            await withWatches([client.watch(`${cmPath(ns)}?watch=1&fieldSelector=metadata.name%3Done`), client.watch(`/api/v1/watch/namespaces/${ns}/configmaps/one`)], async (watches) => {
              for (const w of watches) assert.deepEqual(summary(await w.next(1)), [['ADDED', 'one']]);
              await write(writer, 'POST', ns, 'one-more', { grp: 'one' });
              await write(writer, 'PUT', ns, 'one', { grp: 'one' }, 'x');
              for (const w of watches) {
                assert.deepEqual(summary(await w.next(1)), [['MODIFIED', 'one']]);
                assert.equal(w.events.length, 2, 'a longer name sharing the prefix is not included');
              }
            });
          });

          it(`label selector transitions: entering is ADDED, leaving is DELETED (${on})`, async () => {
            const { client, writer, namespace: ns } = target();
            const rv = await write(writer, 'POST', ns, 't1', { grp: 'trans' });
            await withWatches([client.watch(`${cmPath(ns)}?watch=1&resourceVersion=${rv}&labelSelector=sel%3Dyes`)], async ([w]) => {
              await write(writer, 'PUT', ns, 't1', { grp: 'trans', sel: 'yes' });
              await write(writer, 'PUT', ns, 't1', { grp: 'trans', sel: 'yes' }, 'still in');
              await write(writer, 'PUT', ns, 't1', { grp: 'trans', sel: 'no' });
              await write(writer, 'PUT', ns, 't1', { grp: 'trans', sel: 'no' }, 'still out');
              await write(writer, 'POST', ns, 't2', { sel: 'yes' });
              assert.deepEqual(summary(await w!.next(4)), [['ADDED', 't1'], ['MODIFIED', 't1'], ['DELETED', 't1'], ['ADDED', 't2']]);
            });
          });

          it(`a start beyond the current revision waits: only later changes arrive (${on})`, async () => {
            const { client, writer, namespace: ns } = target();
            const now = await write(writer, 'POST', ns, 'f0', { grp: 'future' });
            const from = now + 4;
            await withWatches([client.watch(`${cmPath(ns)}?watch=1&resourceVersion=${from}&labelSelector=grp%3Dfuture`)], async ([w]) => {
              const written: { name: string; rv: number }[] = [];
              for (let i = 1; written.length < 8 || written.every((x) => x.rv <= from); i++) {
                written.push({ name: `f${i}`, rv: await write(writer, 'POST', ns, `f${i}`, { grp: 'future' }) });
              }
              const expected = written.filter((x) => x.rv > from);
              const events = await w!.next(expected.length);
              assert.deepEqual(summary(events), expected.map((x) => ['ADDED', x.name]));
              assert.ok(events.every((e) => rvOf(e) > from));
            });
          });
        });
      }
    }
  });
});
