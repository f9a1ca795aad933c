// Every cell of the get and list resourceVersion tables (and the watch start cells that fail),
// on one real 3-process cluster, through the leader and through a follower, over HTTP/1.1 and
// HTTP/2. Writes go through another replica than the one read, so "Most Recent" is tested for real.
// The cluster keeps 10 s of history, so the expired cells (410) can be reached by waiting.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { TestApiClient } from '../support/api-client.ts';
import { startClusterFixture, type ClusterFixture } from '../support/cluster-fixture.ts';
import type { RawClient, RawResponse } from '../support/raw-client.ts';
import { closeTargets, roleTargets, type RoleTarget } from '../support/role-targets.ts';

const retention = '10s';

interface ListBody {
  kind: string;
  metadata: { resourceVersion: string; continue?: string; remainingItemCount?: number };
  items: { metadata: { name: string; resourceVersion: string }; data?: Record<string, string> }[];
}
interface StatusBody {
  kind: string;
  code: number;
  reason: string;
  message: string;
}

const cmPath = (ns: string, name = ''): string => `/api/v1/namespaces/${ns}/configmaps${name === '' ? '' : `/${name}`}`;

async function write(writer: TestApiClient, method: 'POST' | 'PUT', ns: string, name: string, value: string, labels: Record<string, string> = {}): Promise<number> {
  const body = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels }, data: { v: value } };
  const res = await writer.call(method, method === 'POST' ? cmPath(ns) : cmPath(ns, name), { body });
  assert.ok(res.status === 200 || res.status === 201, res.text);
  return Number((res.json as { metadata: { resourceVersion: string } }).metadata.resourceVersion);
}

async function list(client: RawClient, ns: string, query: string): Promise<ListBody> {
  const res = await client.call('GET', `${cmPath(ns)}?${query}`);
  assert.equal(res.status, 200, `${query}: ${res.text}`);
  return res.json as ListBody;
}

function expectStatus(res: RawResponse, code: number, reason: string | RegExp, message?: RegExp): StatusBody {
  assert.equal(res.status, code, res.text);
  const st = res.json as StatusBody;
  assert.equal(st.kind, 'Status');
  assert.equal(st.code, code);
  assert.match(st.reason, typeof reason === 'string' ? new RegExp(`^${reason}$`) : reason);
  if (message) assert.match(st.message, message);
  return st;
}

const names = (l: ListBody): string[] => l.items.map((i) => i.metadata.name);
const valueOf = (l: ListBody, name: string): string | undefined => l.items.find((i) => i.metadata.name === name)?.data?.['v'];
const rvOf = (l: ListBody): number => Number(l.metadata.resourceVersion);

describe('resourceVersion tables through the leader and a follower', () => {
  let fixture: ClusterFixture;
  let targets: RoleTarget[] = [];
  /** Per namespace: a revision and a continue token taken early, expired by the last test. */
  const early = new Map<string, { revision: number; token: string }>();

  before(async () => {
    fixture = await startClusterFixture({ extraArgs: ['--watch-history-retention', retention] });
    targets = await roleTargets(fixture, 'rv');
    for (const t of targets) {
      const res = await t.writer.call('POST', '/api/v1/namespaces', { body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: t.namespace } } });
      assert.equal(res.status, 201, res.text);
      for (const n of ['a', 'b', 'c']) await write(t.writer, 'POST', t.namespace, n, `${n}1`, { set: 'abc' });
      const first = await list(t.client, t.namespace, 'limit=1');
      assert.ok(first.metadata.continue);
      early.set(t.namespace, { revision: rvOf(first), token: first.metadata.continue });
      // A later write, so that compaction past it also passes the early revision.
      await write(t.writer, 'POST', t.namespace, 'z', 'z1');
    }
  });

  after(async () => {
    closeTargets(targets);
    await fixture?.close();
  });

  // The four targets have a namespace each and run side by side (much of each one's time is waiting
  // out a too-large version's 504 or a write's commit); each target's cases run in order.
  describe('every target', { concurrency: true }, () => {
    for (const role of ['leader', 'follower'] as const) {
      for (const protocol of ['http/1.1', 'h2'] as const) {
        const target = (): RoleTarget => {
          const t = targets.find((x) => x.role === role && x.protocol === protocol);
          assert.ok(t);
          return t;
        };
        describe(`through the ${role} over ${protocol}`, { concurrency: 1 }, () => {
          it(`get cells through the ${role} over ${protocol}: Most Recent, Any, Not older than, invalid, too large`, async () => {
            const { client, writer, namespace: ns } = target();
            const rv = await write(writer, 'POST', ns, 'g', 'g1');
            const recent = await client.call('GET', cmPath(ns, 'g'));
            assert.equal(recent.status, 200, 'Most Recent sees the write another replica acknowledged');
            assert.equal((recent.json as { metadata: { resourceVersion: string } }).metadata.resourceVersion, String(rv));
            assert.equal((await client.call('GET', `${cmPath(ns, 'g')}?resourceVersion=0`)).status, 200, 'Any');
            const notOlder = await client.call('GET', `${cmPath(ns, 'g')}?resourceVersion=${rv}`);
            assert.equal(notOlder.status, 200, 'Not older than a revision this replica must wait for or has');
            expectStatus(await client.call('GET', `${cmPath(ns, 'g')}?resourceVersion=abc`), 400, 'BadRequest', /invalid resource version/);
            const tooLarge = await client.call('GET', `${cmPath(ns, 'g')}?resourceVersion=${rv + 1_000_000}`);
            const st = expectStatus(tooLarge, 504, 'Timeout', /Too large resource version/);
            assert.ok(st);
            assert.equal(tooLarge.headers['retry-after'], '1');
          });

          it(`list cells without match through the ${role} over ${protocol}: Most Recent, Any, Not older than, Exact with limit`, async () => {
            const { client, writer, namespace: ns } = target();
            const created = await write(writer, 'POST', ns, 'd', 'd1', { set: 'abc' });
            const recent = await list(client, ns, '');
            assert.ok(names(recent).includes('d'), 'Most Recent sees the write another replica acknowledged');
            assert.ok(rvOf(recent) >= created);
            assert.ok(names(await list(client, ns, 'resourceVersion=0')).length > 0, 'Any');
            assert.ok(rvOf(await list(client, ns, `resourceVersion=${created}`)) >= created, 'Not older than');
            const updated = await write(writer, 'PUT', ns, 'd', 'd2', { set: 'abc' });
            const exact = await list(client, ns, `resourceVersion=${created}&limit=100`);
            assert.equal(rvOf(exact), created, 'limit with a version is Exact: the collection is at that version');
            assert.equal(valueOf(exact, 'd'), 'd1', 'items as of that version');
            const fresh = await list(client, ns, `resourceVersion=${updated}`);
            assert.equal(valueOf(fresh, 'd'), 'd2');
            expectStatus(await client.call('GET', `${cmPath(ns)}?resourceVersion=x`), 400, 'BadRequest');
          });

          it(`list cells with resourceVersionMatch through the ${role} over ${protocol}: Exact, NotOlderThan and the invalid ones`, async () => {
            const { client, writer, namespace: ns } = target();
            const before = await write(writer, 'POST', ns, 'e', 'e1');
            await write(writer, 'PUT', ns, 'e', 'e2');
            for (const limit of ['', '&limit=50']) {
              const exact = await list(client, ns, `resourceVersion=${before}&resourceVersionMatch=Exact${limit}`);
              assert.equal(rvOf(exact), before);
              assert.equal(valueOf(exact, 'e'), 'e1', 'Exact shows the value as of the old revision');
              const notOlder = await list(client, ns, `resourceVersion=${before}&resourceVersionMatch=NotOlderThan${limit}`);
              assert.ok(rvOf(notOlder) >= before);
              assert.ok(rvOf(await list(client, ns, `resourceVersion=0&resourceVersionMatch=NotOlderThan${limit}`)) > 0, 'NotOlderThan 0 is Any');
              expectStatus(await client.call('GET', `${cmPath(ns)}?resourceVersionMatch=Exact${limit}`), 422, 'Invalid', /forbidden unless resourceVersion is provided/);
              expectStatus(await client.call('GET', `${cmPath(ns)}?resourceVersion=0&resourceVersionMatch=Exact${limit}`), 422, 'Invalid', /forbidden for resourceVersion "0"/);
              expectStatus(await client.call('GET', `${cmPath(ns)}?resourceVersionMatch=NotOlderThan${limit}`), 422, 'Invalid', /forbidden unless resourceVersion is provided/);
            }
            expectStatus(await client.call('GET', `${cmPath(ns)}?resourceVersion=1&resourceVersionMatch=Latest`), 422, 'Invalid', /Unsupported value/);
            const tooLarge = await client.call('GET', `${cmPath(ns)}?resourceVersion=${before + 1_000_000}&resourceVersionMatch=Exact`);
            expectStatus(tooLarge, 504, 'Timeout', /Too large resource version/);
            assert.equal(tooLarge.headers['retry-after'], '1');
            const tooLargeNotOlder = await client.call('GET', `${cmPath(ns)}?resourceVersion=${before + 1_000_000}`);
            expectStatus(tooLargeNotOlder, 504, 'Timeout', /Too large resource version/);
          });

          it(`continue-token Exact through the ${role} over ${protocol}: chunks keep the first chunk's version while writes happen`, async () => {
            const { client, writer, namespace: ns } = target();
            const first = await list(client, ns, 'labelSelector=set%3Dabc&limit=2');
            assert.deepEqual(names(first), ['a', 'b']);
            assert.ok(first.metadata.continue);
            assert.equal(first.metadata.remainingItemCount, undefined, 'omitted with a label selector');
            await write(writer, 'POST', ns, 'bb', 'bb1', { set: 'abc' });
            await write(writer, 'PUT', ns, 'c', 'c2', { set: 'abc' });
            for (const rv of ['', '&resourceVersion=0']) {
              const next = await list(client, ns, `labelSelector=set%3Dabc&limit=2&continue=${first.metadata.continue}${rv}`);
              assert.equal(next.metadata.resourceVersion, first.metadata.resourceVersion, 'the snapshot of the first chunk');
              assert.equal(names(next)[0], 'c', 'objects created after the first chunk are not in the snapshot');
              assert.equal(valueOf(next, 'c'), 'c1', 'values as of the first chunk');
            }
            const bad = await client.call('GET', `${cmPath(ns)}?limit=2&continue=${first.metadata.continue}&resourceVersion=${first.metadata.resourceVersion}`);
            expectStatus(bad, 400, 'BadRequest', /specifying resource version is not allowed when using continue/);
            const badMatch = await client.call('GET', `${cmPath(ns)}?limit=2&continue=${first.metadata.continue}&resourceVersion=0&resourceVersionMatch=NotOlderThan`);
            expectStatus(badMatch, 422, 'Invalid', /forbidden when continue is provided/);
            expectStatus(await client.call('GET', `${cmPath(ns)}?limit=2&continue=garbage`), 400, 'BadRequest', /continue key is not valid/);
          });

          it(`remainingItemCount through the ${role} over ${protocol}: counted without selectors, omitted with them and on the last chunk`, async () => {
            const { client, namespace: ns } = target();
            const all = await list(client, ns, '');
            const one = await list(client, ns, 'limit=1');
            assert.equal(one.metadata.remainingItemCount, all.items.length - 1);
            const rest = await list(client, ns, `limit=${all.items.length}&continue=${one.metadata.continue}`);
            assert.equal(rest.metadata.continue, undefined, 'no continue on the last chunk');
            assert.equal(rest.metadata.remainingItemCount, undefined, 'omitted when the list is complete');
            assert.equal(rest.items.length, all.items.length - 1);
            const selected = await list(client, ns, 'fieldSelector=metadata.name!%3Dnone&limit=1');
            assert.ok(selected.metadata.continue);
            assert.equal(selected.metadata.remainingItemCount, undefined, 'omitted with a field selector');
          });
        });
      }
    }
  });

  it('after compaction passes a revision: Exact list, continue token and watch from it are 410 Expired on every target', async () => {
    for (const t of targets) {
      const { revision, token } = early.get(t.namespace) ?? assert.fail('no early revision');
      const ns = t.namespace;
      let res: RawResponse | undefined;
      // Compaction keeps `retention` of history and runs every quarter of it; followers apply it from the log.
      for (let i = 0; i < 120; i++) {
        res = await t.client.call('GET', `${cmPath(ns)}?resourceVersion=${revision}&resourceVersionMatch=Exact`);
        if (res.status !== 200) break;
        await sleep(500);
      }
      assert.ok(res);
      expectStatus(res, 410, 'Expired', /too old/);
      expectStatus(await t.client.call('GET', `${cmPath(ns)}?limit=1&resourceVersion=${revision}`), 410, 'Expired');
      expectStatus(await t.client.call('GET', `${cmPath(ns)}?limit=1&continue=${token}`), 410, 'Expired', /continue parameter is too old/);
      // As kube-apiserver: the watch is accepted (200) and its one event is an ERROR carrying the 410 Status.
      const w = await t.client.watch(`${cmPath(ns)}?watch=1&resourceVersion=${revision}`);
      try {
        assert.equal(w.status, 200);
        const [ev] = await w.next(1);
        assert.equal(ev?.type, 'ERROR');
        assert.equal((ev?.object as unknown as StatusBody).code, 410);
        assert.equal((ev?.object as unknown as StatusBody).reason, 'Expired');
        assert.match((ev?.object as unknown as StatusBody).message, /too old resource version/);
        await w.ended;
      } finally {
        w.close();
      }
    }
  });
});
