// Acceptance of the replicated store with real processes: writes spread over all replicas while
// the leader is SIGKILLed and restarted; nothing acknowledged is lost, every replica holds the
// same revisions and values, and each replica's watch sees every event once, in order.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { startClusterFixture, type ClusterFixture } from '../support/cluster-fixture.ts';
import { readWatch, type RecordedEvent } from '../support/watch-stream.ts';

/** Writes at least this many, and go on until every leader kill happened (the kills must hit writes). */
const writesMin = 5000;
const writesMax = 50_000;
const writers = 24;
const leaderKills = 3;
const namespacePath = '/api/v1/namespaces/default/configmaps';

interface Acknowledged {
  readonly name: string;
  readonly resourceVersion: number;
  readonly value: string;
}

/** Kills the replica at `name` with SIGKILL and waits for its process to exit. */
async function sigkill(fixture: ClusterFixture, name: string): Promise<void> {
  const replica = fixture.cluster.replicas.find((r) => r.spec.name === name);
  const child = replica?.process;
  if (!child) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  fixture.cluster.signal(name, 'SIGKILL');
  await exited;
}

/** Watches one replica from `afterRevision`, resuming on the same replica from the last event after each break. */
function watchReplica(fixture: ClusterFixture, index: number, afterRevision: number, signal: AbortSignal): { events: RecordedEvent[]; done: Promise<void> } {
  const events: RecordedEvent[] = [];
  const replica = fixture.cluster.replicas[index];
  assert.ok(replica);
  const done = (async () => {
    let from = afterRevision;
    while (!signal.aborted) {
      await readWatch({
        url: `${replica.apiUrl}${namespacePath}?watch=1&resourceVersion=${from}&labelSelector=test%3Dstore`,
        caPem: fixture.cluster.caPem,
        token: fixture.cluster.adminToken,
        signal,
        onEvent: (event) => {
          if (event.type === 'BOOKMARK') return;
          events.push(event);
          from = event.resourceVersion;
        },
      });
      if (!signal.aborted) await sleep(200);
    }
  })();
  return { events, done };
}

/**
 * Creates objects from `writers` concurrent clients, each moving to the next replica on failure:
 * at least `writesMin`, and more until `killing.finished`.
 */
async function writeAll(fixture: ClusterFixture, killing: { finished: boolean }): Promise<{ acknowledged: Acknowledged[]; attempted: number; failures: number }> {
  const acknowledged: Acknowledged[] = [];
  let next = 0;
  let failures = 0;
  const worker = async (w: number): Promise<void> => {
    let target = w % fixture.clients.length;
    for (let i = next++; i < writesMax && (i < writesMin || !killing.finished); i = next++) {
      const name = `w${i}`;
      const value = `value-${i}-${'x'.repeat(200)}`;
      for (let attempt = 0; attempt < 50; attempt += 1) {
        const client = fixture.clients[target];
        assert.ok(client);
        const res = await client
          .call('POST', namespacePath, { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels: { test: 'store' } }, data: { v: value } } })
          .catch(() => null);
        if (res?.status === 201) {
          const rv = Number((res.json as { metadata: { resourceVersion: string } }).metadata.resourceVersion);
          acknowledged.push({ name, resourceVersion: rv, value });
          break;
        }
        // 409 after a retry: an earlier attempt whose answer was lost did apply; it is not acknowledged.
        if (res?.status === 409) break;
        failures += 1;
        target = (target + 1) % fixture.clients.length;
        await sleep(50);
      }
    }
  };
  await Promise.all(Array.from({ length: writers }, (_, w) => worker(w)));
  return { acknowledged, attempted: Math.min(next, writesMax), failures };
}

/** Kills the current leader `leaderKills` times while writes run, restarting it each time. */
async function killLeaders(fixture: ClusterFixture, killing: { finished: boolean }): Promise<string[]> {
  const killed: string[] = [];
  for (let k = 0; k < leaderKills; k += 1) {
    await sleep(1500);
    const leader = await fixture.leader();
    if (leader === null) continue;
    await sigkill(fixture, leader);
    killed.push(leader);
    await sleep(1000);
    fixture.cluster.restart(leader);
    await fixture.cluster.waitReady([leader], 60_000);
  }
  killing.finished = true;
  return killed;
}

test('acknowledged writes survive leader SIGKILLs and every replica agrees on revisions, values and watch events', { timeout: 600_000 }, async (t) => {
  const fixture = await startClusterFixture();
  t.after(() => fixture.close());
  const first = await fixture.clients[0]?.call('GET', namespacePath);
  assert.equal(first?.status, 200, first?.text);
  const startRevision = Number((first?.json as { metadata: { resourceVersion: string } }).metadata.resourceVersion);

  const abort = new AbortController();
  t.after(() => abort.abort());
  const watches = fixture.cluster.replicas.map((_, i) => watchReplica(fixture, i, startRevision, abort.signal));

  const killState = { finished: false };
  const killing = killLeaders(fixture, killState);
  const { acknowledged, attempted, failures } = await writeAll(fixture, killState);
  const killed = await killing;
  t.diagnostic(`acknowledged ${acknowledged.length} of ${attempted} creates, ${failures} failed attempts, leaders killed: ${killed.join(', ')}`);
  assert.equal(killed.length, leaderKills, 'the leader was killed and restarted 3 times while writing');
  await fixture.cluster.waitReady(undefined, 60_000);

  // Every replica lists the same objects with the same revisions and values, acknowledged ones included.
  const lists = await Promise.all(
    fixture.clients.map(async (client) => {
      const res = await client.call('GET', `${namespacePath}?labelSelector=test%3Dstore`);
      assert.equal(res.status, 200, res.text);
      return (res.json as { items: { metadata: { name: string; resourceVersion: string }; data: { v: string } }[] }).items.map((o) => ({
        name: o.metadata.name,
        resourceVersion: Number(o.metadata.resourceVersion),
        value: o.data.v,
      }));
    }),
  );
  const [reference, ...others] = lists;
  assert.ok(reference);
  for (const other of others) assert.deepEqual(other, reference, 'replicas disagree on the stored objects');
  const stored = new Map(reference.map((o) => [o.name, o]));
  for (const ack of acknowledged) assert.deepEqual(stored.get(ack.name), ack, `acknowledged write ${ack.name} is missing or changed`);
  const revisions = reference.map((o) => o.resourceVersion).sort((a, b) => a - b);
  assert.equal(new Set(revisions).size, revisions.length, 'revisions are unique');

  // Each replica's watch saw every create exactly once, in revision order, with no gap.
  const expected = [...reference].sort((a, b) => a.resourceVersion - b.resourceVersion).map((o) => `${o.resourceVersion}:${o.name}`);
  const deadline = Date.now() + 30_000;
  while (watches.some((w) => w.events.length < expected.length) && Date.now() < deadline) await sleep(200);
  abort.abort();
  await Promise.all(watches.map((w) => w.done));
  for (const [i, watch] of watches.entries()) {
    const seen = watch.events.map((e) => `${e.resourceVersion}:${e.name}`);
    assert.deepEqual(seen, expected, `watch on replica ${i + 1} missed, duplicated or reordered events`);
    assert.ok(watch.events.every((e) => e.type === 'ADDED'), 'creates arrive as ADDED');
  }
});
