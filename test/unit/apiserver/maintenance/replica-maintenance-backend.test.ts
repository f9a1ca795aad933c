// The replica's maintenance backend (internal/replica/maintenance-backend.ts) over a fake Raft node
// and a real state database: Raft's refusals become the API's codes, a learner reports itself as
// one, and snapshot downloads are bounded, carry the entry's term, and leave no copy behind.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { MaintenanceError } from '../../../../internal/apiserver/maintenance/backend.ts';
import { RaftNodeError, type MemberInfo } from '../../../../raft/index.ts';
import { ReplicaMaintenance, snapshotDownloadsMax, type MaintainedNode, type MaintenanceBackendOptions } from '../../../../internal/replica/maintenance-backend.ts';
import { SqliteStateMachine } from '../../../../internal/storage/sqlite-state-machine.ts';

const dir = mkdtempSync(join(tmpdir(), 'orch-maintenance-backend-'));
const machine = SqliteStateMachine.open(join(dir, 'state.db'));
after(() => {
  machine.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A node `orch-2` following `orch-1`, a learner `orch-3`; `failWith` makes every change fail so. */
function fakeNode(options: { self?: string; failWith?: RaftNodeError; termAt?: (index: number) => number; readIndex?: () => Promise<number> } = {}): MaintainedNode {
  const self = options.self ?? 'orch-2';
  const members: MemberInfo[] = [
    { id: 'orch-1', peerAddress: 'h1:1', role: 'voter' },
    { id: 'orch-2', peerAddress: 'h2:1', role: 'voter' },
    { id: 'orch-3', peerAddress: 'h3:1', role: 'learner' },
  ];
  const change = (): Promise<void> => (options.failWith ? Promise.reject(options.failWith) : Promise.resolve());
  const node = {
    id: self,
    isLeader: () => false,
    leaderId: () => 'orch-1',
    status: () => ({ role: 'follower', term: 4, commit: 9, applied: 9, firstIndex: 1, lastIndex: 9, snapshotIndex: 0 }),
    clusterId: () => 'c0ffee',
    members: () => members,
    addMember: change,
    promoteMember: change,
    removeMember: change,
    transferLeadership: change,
    readIndex: options.readIndex ?? (() => Promise.resolve(9)),
    ...(options.termAt === undefined ? {} : { termAt: options.termAt }),
  };
  return node as unknown as MaintainedNode;
}

function backendOf(raft: MaintainedNode, dataDir = join(dir, 'replica'), readBarrierTimeoutMs?: number): ReplicaMaintenance {
  const storage = { stateMachine: machine, localRevision: () => machine.currentRevision() } as unknown as MaintenanceBackendOptions['storage'];
  return new ReplicaMaintenance({ raft, storage, dataDir, ...(readBarrierTimeoutMs === undefined ? {} : { readBarrierTimeoutMs }) });
}

test('Raft refusals become the maintenance codes, NotLeader with the leader it knows', async () => {
  const cases: [RaftNodeError, string][] = [
    [new RaftNodeError('NotLeader', 'orch-2 is not the leader'), 'NotLeader'],
    [new RaftNodeError('LearnerBehind', 'learner orch-3 is 500 entries behind'), 'LearnerBehind'],
    [new RaftNodeError('ConfChangePending', 'another change'), 'ConfChangePending'],
    [new RaftNodeError('Stopped', 'the Raft node is stopped'), 'Unavailable'],
    [new RaftNodeError('ProposalDropped', 'dropped'), 'Unavailable'],
  ];
  for (const [raftError, code] of cases) {
    const err = await backendOf(fakeNode({ failWith: raftError })).promoteMember('orch-3').then(() => null, (e: unknown) => e);
    assert.ok(err instanceof MaintenanceError, String(err));
    assert.equal(err.code, code);
    if (code === 'NotLeader') assert.equal(err.leader, 'orch-1');
  }
});

test('a member at an address another member has is refused as AlreadyMember before Raft is asked', async () => {
  const backend = backendOf(fakeNode({ failWith: new RaftNodeError('Remote', 'Raft must not be asked') }));
  await assert.rejects(backend.addMember({ name: 'orch-4', peerAddress: 'h1:1', learner: true }), (e: unknown) => e instanceof MaintenanceError && e.code === 'AlreadyMember' && /orch-1/.test(e.message));
});

test('a leadership transfer is refused on a follower, to a stranger and to a learner before Raft is asked', async () => {
  const follower = backendOf(fakeNode());
  await assert.rejects(follower.transferLeadership('orch-1'), (e: unknown) => e instanceof MaintenanceError && e.code === 'NotLeader' && e.leader === 'orch-1');
  const leaderNode = { ...fakeNode({ self: 'orch-1' }), isLeader: () => true } as unknown as MaintainedNode;
  const leader = backendOf(leaderNode);
  await assert.rejects(leader.transferLeadership('orch-9'), (e: unknown) => e instanceof MaintenanceError && e.code === 'NotMember');
  await assert.rejects(leader.transferLeadership('orch-3'), (e: unknown) => e instanceof MaintenanceError && e.code === 'NotVoter');
  await leader.transferLeadership('orch-2');
});

test('a learner reports the role learner in its status, with the formats and the store revision', async () => {
  const status = await backendOf(fakeNode({ self: 'orch-3' })).status();
  assert.equal(status.role, 'learner');
  assert.equal(status.name, 'orch-3');
  assert.equal(status.leader, 'orch-1');
  assert.deepEqual(status.formats, { log: 1, state: 1, snapshot: 1 });
  assert.equal(status.revision, 0);
  assert.deepEqual(status.members.map((m) => [m.name, m.role]), [['orch-1', 'voter'], ['orch-2', 'voter'], ['orch-3', 'learner']]);
});

test(`snapshot downloads are bounded to ${snapshotDownloadsMax} at once, carry the entry's term, and remove their copies`, async () => {
  const dataDir = join(dir, 'downloads');
  const backend = backendOf(fakeNode({ termAt: () => 7 }), dataDir);
  const open = [];
  for (let i = 0; i < snapshotDownloadsMax; i++) open.push(await backend.openSnapshot());
  await assert.rejects(backend.openSnapshot(), (e: unknown) => e instanceof MaintenanceError && e.code === 'Unavailable');
  assert.equal(readdirSync(join(dataDir, 'snapshot-downloads')).length, snapshotDownloadsMax);
  const first = open[0];
  assert.ok(first !== undefined);
  const chunks: Buffer[] = [];
  for await (const chunk of first.stream) chunks.push(chunk as Buffer);
  const file = Buffer.concat(chunks);
  assert.equal(file.length, first.sizeBytes);
  const line = file.subarray(0, file.indexOf(0x0a)).toString('utf8');
  assert.match(line, /^ORCH-SNAPSHOT \{/);
  assert.equal((JSON.parse(line.slice('ORCH-SNAPSHOT '.length)) as { raftTerm: number }).raftTerm, 7);
  for (const download of open) {
    await download.release();
    await download.release(); // a second release is harmless
  }
  assert.deepEqual(readdirSync(join(dataDir, 'snapshot-downloads')), []);
  const again = await backend.openSnapshot();
  await again.release();
});

test('a replica that cannot get a read index from the leader (removed, cut off) refuses the snapshot: no copy, its slot given back', async () => {
  const dataDir = join(dir, 'stale');
  const copies = (): string[] => (existsSync(join(dataDir, 'snapshot-downloads')) ? readdirSync(join(dataDir, 'snapshot-downloads')) : []);
  const refusedByRaft = backendOf(fakeNode({ readIndex: () => Promise.reject(new RaftNodeError('Timeout', 'read index not confirmed')) }), dataDir);
  for (let i = 0; i <= snapshotDownloadsMax; i++) {
    await assert.rejects(refusedByRaft.openSnapshot(), (e: unknown) => e instanceof MaintenanceError && e.code === 'Unavailable'
      && e.message === "this replica cannot confirm it is current with the cluster's leader: read index not confirmed; take the snapshot from another replica");
  }
  assert.deepEqual(copies(), []);
  // A read index that never comes (no leader answers) is waited for only so long.
  const started = Date.now();
  const unanswered = backendOf(fakeNode({ readIndex: () => new Promise<number>(() => undefined) }), dataDir, 100);
  await assert.rejects(unanswered.openSnapshot(), (e: unknown) => e instanceof MaintenanceError && e.code === 'Unavailable' && /within 100 ms; take the snapshot from another replica$/.test(e.message));
  assert.ok(Date.now() - started < 2000);
  assert.deepEqual(copies(), []);
});

test('the copy is made only once the read index is applied here', async () => {
  const order: string[] = [];
  let confirm = (): void => undefined;
  const node = fakeNode({ termAt: () => 4, readIndex: () => new Promise<number>((resolve) => (confirm = () => {
    order.push('read index applied');
    resolve(9);
  })) });
  const snapshotTo = machine.snapshotTo.bind(machine);
  const storage = { stateMachine: { snapshotTo: (path: string) => (order.push('copy'), snapshotTo(path)) }, localRevision: () => 0 } as unknown as MaintenanceBackendOptions['storage'];
  const backend = new ReplicaMaintenance({ raft: node, storage, dataDir: join(dir, 'ordered') });
  const opening = backend.openSnapshot();
  await new Promise((resolve) => setTimeout(resolve, 20));
  assert.deepEqual(order, []);
  confirm();
  const download = await opening;
  await download.release();
  assert.deepEqual(order, ['read index applied', 'copy']);
});
