// A leader whose process dies is forgotten by its followers as soon as its connection closes, not
// an election timeout later: the transport reports a peer whose message stream ended or broke,
// and a follower forgets the leader it reported (RawNode.forgetLeader).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureClusterPki } from '../../../internal/certificates/index.ts';
import { killPid } from '../../../bench/cleanup.ts';
import { makeMessage, term } from '../../../raft/core/index.ts';
import { Transport, type TransportHandlers } from '../../../raft/transport.ts';
import { eventually } from '../../unit/storage/conformance-support.ts';
import { forkEntryPoint } from '../../support/fork-entry-point.ts';
import { ToyCluster } from './toy-cluster.ts';


/** Handlers that record only the peers reported gone and the senders of messages. */
function goneRecorder(): TransportHandlers & { gone: string[]; heardFrom: Set<string> } {
  const r = {
    gone: [] as string[],
    heardFrom: new Set<string>(),
    onMessages: (messages: { from: string }[]) => { for (const m of messages) r.heardFrom.add(m.from); },
    onSnapshot: () => false,
    onForward: () => Promise.resolve(new Uint8Array(0)),
    onUnreachable: () => {},
    onSnapshotStatus: () => {},
    onPeerGone: (peer: string) => { r.gone.push(peer); },
  };
  return r;
}

test('the transport reports a peer whose process is killed, and one that stops', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'orch-peer-gone-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const pki = await ensureClusterPki(join(dir, 'pki'), ['a', 'b', 'c']);
  const tls = (id: string) => ({ ca: pki.ca.cert, cert: pki.replicas[id]!.cert, key: pki.replicas[id]!.key });
  const recorder = goneRecorder();
  const a = await Transport.start({ id: 'a', listen: '127.0.0.1:0', peers: { b: '127.0.0.1:1', c: '127.0.0.1:1' }, tls: tls('a'), snapshotDir: join(dir, 'a'), handlers: recorder });
  t.after(() => a.stop());

  const child = forkEntryPoint('test/support/transport-peer.ts', [dir, 'b', `a=127.0.0.1:${a.port}`], { stdio: 'ignore' });
  t.after(() => killPid(child.pid));
  await once(child, 'message');
  await eventually(() => recorder.heardFrom.has('b'), 'a heartbeat from b');
  assert.deepEqual(recorder.gone, []);
  child.kill('SIGKILL');
  await eventually(() => recorder.gone.includes('b'), 'b reported gone after its SIGKILL');

  const c = await Transport.start({ id: 'c', listen: '127.0.0.1:0', peers: { a: `127.0.0.1:${a.port}` }, tls: tls('c'), snapshotDir: join(dir, 'c'), handlers: goneRecorder() });
  c.send([makeMessage({ type: 'heartbeat', from: 'c', to: 'a', term: term(1) })]);
  await eventually(() => recorder.heardFrom.has('c'), 'a heartbeat from c');
  await c.stop();
  await eventually(() => recorder.gone.includes('c'), 'c reported gone after it stopped');
});

test('followers forget a leader whose connection closed long before an election timeout', async (t) => {
  // A tick every 500 ms, heartbeats every tick, elections after 6 to 12 ticks: without forgetting,
  // a follower keeps a stopped leader for at least 5 ticks after its last heartbeat, 2 s or more.
  const cluster = await ToyCluster.start({ tickMs: 500, electionTicks: 6 });
  t.after(() => cluster.close());
  const leader = await cluster.leader(30_000);
  const followers = cluster.running().filter((m) => m !== leader);
  await leader.node!.stop(); // no hand-off: its connections simply close
  const stoppedAt = Date.now();
  await eventually(() => followers.every((m) => m.node!.leaderId() !== leader.id), 'both followers forgot the stopped leader', 5_000);
  assert.ok(Date.now() - stoppedAt < 1_500, `forgotten ${Date.now() - stoppedAt} ms after the stop, before any follower's election timer could fire`);
  await cluster.stopMember(leader.id);
  const next = await cluster.leader(30_000);
  assert.notEqual(next.id, leader.id);
});
