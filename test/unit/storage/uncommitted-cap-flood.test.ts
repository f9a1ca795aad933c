// A flood of writes relayed by a follower against a leader whose cap on uncommitted entry bytes
// (raft/limits.ts uncommittedEntriesBytesMax, here 32 entries' worth) refuses most of them at
// first: the relays the leader dropped are relayed again, and every write acknowledged is applied
// on every replica, once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureClusterPki } from '../../../internal/certificates/index.ts';
import { openRaftStorage, type RaftStorage } from '../../../internal/storage/raft-storage.ts';
import { freePorts } from '../../support/free-ports.ts';

const writes = 120;
/** Writes relayed together: more than the cap's 32 entries. */
const waveWrites = 40;
/** Floods sent at most, until the cap has refused a relay. */
const maxRounds = 5;
const valueBytes = 1024;

test('writes relayed past the leader\'s cap on uncommitted bytes are retried, and none acknowledged is lost', { timeout: 120_000 }, async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'orch-cap-flood-'));
  const replicas: RaftStorage[] = [];
  t.after(async () => {
    await Promise.all(replicas.map((r) => r.close().catch(() => undefined)));
    await rm(dir, { recursive: true, force: true });
  });
  const ids = ['n1', 'n2', 'n3'];
  const pki = await ensureClusterPki(join(dir, 'pki'), ids);
  const ports = await freePorts(ids.length);
  const peers = Object.fromEntries(ids.map((id, i) => [id, `127.0.0.1:${ports[i]}`]));
  for (const id of ids) {
    const pair = pki.replicas[id];
    if (pair === undefined) throw new Error(`no certificate for ${id}`);
    // Elections after 1 s of silence: a loaded machine's pauses do not move leadership mid-flood.
    replicas.push(await openRaftStorage({
      dataDir: join(dir, id), replicaName: id, relayAttemptTimeoutMs: 200,
      raft: {
        id, peers, listen: peers[id] as string, tls: { ca: pki.ca.cert, cert: pair.cert, key: pair.key },
        tickMs: 20, electionTicks: 50, heartbeatTicks: 1, snapshotEveryEntries: 0, uncommittedEntriesBytesMax: 32 * valueBytes,
      },
    }));
  }
  const deadline = Date.now() + 10_000;
  while (!replicas.some((r) => r.node.isLeader())) {
    if (Date.now() > deadline) throw new Error('no leader elected in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  const follower = replicas.find((r) => !r.node.isLeader() && r.node.leaderId() !== null) ?? replicas.find((r) => !r.node.isLeader());
  assert.ok(follower);
  const value = new Uint8Array(valueBytes).fill(7);
  const leader = replicas.find((r) => r.node.isLeader());
  assert.ok(leader);
  const dropped = (): number => leader.node.metrics().droppedRelayedProposals;
  // The cap lets a batch through whatever its size when nothing is uncommitted (as etcd's), so a
  // flood relayed in one batch meets no refusal. Each flood goes in waves bigger than the cap, each
  // relayed (synchronously, by create) and sent a turn later, before the leader can commit the
  // wave before it: that one is still uncommitted. Flood again (new keys) until one was refused.
  let sent = 0;
  for (let round = 0; round < maxRounds && dropped() === 0; round++) {
    assert.ok(leader.node.isLeader() && !follower.node.isLeader(), 'leadership moved during the floods');
    const waves: Promise<PromiseSettledResult<unknown>[]>[] = [];
    for (let wave = 0; wave < writes / waveWrites; wave++) {
      const first = sent;
      waves.push(Promise.allSettled(Array.from({ length: waveWrites }, (_, i) => follower.storage.create(`/flood/${first + i}`, value))));
      sent += waveWrites;
      await new Promise((resolve) => setImmediate(resolve)); // the Ready that sends the wave
    }
    const refused = (await Promise.all(waves)).flat().find((o) => o.status === 'rejected');
    assert.equal(refused, undefined, `refused: ${refused?.status === 'rejected' ? String(refused.reason) : ''}`);
  }
  assert.ok(dropped() > 0, `the leader's cap refused no relay in ${maxRounds} floods: the test proves nothing`);
  assert.ok(follower.node.metrics().relayedProposals > sent, 'the refused relays were relayed again');
  // Every replica applies every acknowledged write (the leader's and the other follower's apply may trail).
  const applyDeadline = Date.now() + 10_000;
  for (const r of replicas) {
    while (r.storage.localRevision() < sent && Date.now() < applyDeadline) await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal(r.storage.localRevision(), sent, 'each write applied once, whatever times it was relayed');
    for (let i = 0; i < sent; i++) assert.notEqual(await r.storage.get(`/flood/${i}`, { consistency: 'local' }), null, `write ${i} missing`);
  }
});
