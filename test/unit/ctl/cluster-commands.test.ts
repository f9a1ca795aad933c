// status, member and leader against stub replicas: a leader, a follower that refuses leader-only
// calls with 503 as the contract says, and (in the kubeconfig) a dead replica.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runOrchctl } from '../../../internal/ctl/dispatcher.ts';
import type { ReplicaStatus } from '../../../internal/ctl/maintenance-api.ts';
import { recordingIo, sendJson, sendStatus, startStubCluster, type Received, type StubCluster } from './stub-replicas.ts';
import type { ServerResponse } from 'node:http';

const members = [
  { name: 'orch-1', peerAddress: '127.0.0.1:7001', role: 'voter' },
  { name: 'orch-2', peerAddress: '127.0.0.1:7002', role: 'voter' },
];

function status(name: string, role: ReplicaStatus['role'], appliedIndex: number): ReplicaStatus {
  return {
    name, version: '0.1.0', formats: { log: 1, state: 1, snapshot: 1 }, clusterId: 'cid-1', role, leader: 'orch-1', term: 4, commitIndex: 100, appliedIndex,
    firstIndex: 1, lastIndex: 100, snapshotIndex: 0, revision: 42, dbSizeBytes: { state: 4096, log: 8192 }, members: members as ReplicaStatus['members'],
  };
}

/** The leader's answers; `promoteBehind` 409s before promote succeeds. */
function leaderHandler(state: { promoteBehind: number; alreadyAdded?: boolean }): (req: Received, res: ServerResponse) => void {
  return (req, res) => {
    if (req.method === 'GET' && req.url === '/orch/v1/status') return sendJson(res, 200, status('orch-1', 'leader', 100));
    if (req.method === 'GET' && req.url === '/orch/v1/members') return sendJson(res, 200, { leader: 'orch-1', members: members.map((m) => ({ ...m, matchIndex: 100, lag: 0 })) });
    if (req.method === 'POST' && req.url === '/orch/v1/members') {
      if (state.alreadyAdded) return sendStatus(res, 409, 'AlreadyExists', 'member orch-3 already exists');
      const body = JSON.parse(req.body) as { name: string; peerAddress: string; learner: boolean };
      return sendJson(res, 201, { name: body.name, peerAddress: body.peerAddress, role: 'learner' });
    }
    if (req.method === 'POST' && req.url === '/orch/v1/members/orch-3/promote') {
      if (state.promoteBehind > 0) {
        state.promoteBehind -= 1;
        return sendStatus(res, 409, 'Conflict', 'orch-3 is 120 entries behind the leader');
      }
      return sendJson(res, 200, { name: 'orch-3', peerAddress: 'h3:7003', role: 'voter' });
    }
    if (req.method === 'DELETE' && req.url === '/orch/v1/members/orch-2') return sendJson(res, 200, { removed: 'orch-2' });
    if (req.method === 'DELETE' && req.url === '/orch/v1/members/nobody') return sendStatus(res, 404, 'NotFound', 'no member nobody');
    if (req.method === 'POST' && req.url === '/orch/v1/leader') return sendJson(res, 200, { leader: (JSON.parse(req.body) as { target: string }).target });
    return sendStatus(res, 404, 'NotFound', `${req.method} ${req.url}`);
  };
}

function followerHandler(req: Received, res: ServerResponse): void {
  if (req.method === 'GET' && req.url === '/orch/v1/status') return sendJson(res, 200, status('orch-2', 'follower', 97));
  if (req.method === 'GET' && req.url === '/orch/v1/members') return sendJson(res, 200, { leader: 'orch-1', members });
  if (req.url === '/readyz') return sendJson(res, 200, 'ok');
  return sendStatus(res, 503, 'ServiceUnavailable', 'this replica (orch-2) is not the leader; the leader is orch-1');
}

async function withCluster(body: (cluster: StubCluster, state: { promoteBehind: number; alreadyAdded?: boolean }) => Promise<void>): Promise<void> {
  const cluster = await startStubCluster(2, { deadInKubeconfig: 'last' });
  const state: { promoteBehind: number; alreadyAdded?: boolean } = { promoteBehind: 0 };
  // The follower is the kubeconfig's current context, so leader-only calls meet its 503 first.
  const [follower, leader] = cluster.replicas;
  if (follower === undefined || leader === undefined) throw new Error('assert: two stubs');
  follower.handler = followerHandler;
  leader.handler = leaderHandler(state);
  try {
    await body(cluster, state);
  } finally {
    await cluster.close();
  }
}

test('status shows every replica, the dead one as an unreachable row, the lag against the leader, and the membership', () =>
  withCluster(async (cluster) => {
    const io = recordingIo(cluster.dir);
    assert.equal(await runOrchctl(['status', '--kubeconfig', cluster.kubeconfigPath], io), 0, io.err);
    const lines = io.out.split('\n');
    assert.match(lines[0] ?? '', /^ENDPOINT\s+NAME\s+ROLE\s+LEADER\s+TERM\s+COMMIT\s+APPLIED\s+REVISION\s+LAG\s+DB SIZE\s+VERSION\s+CLUSTER ID\s+ERROR$/);
    assert.match(io.out, /orch-2\s+follower\s+orch-1\s+4\s+100\s+97\s+42\s+3\s+12\.0 KiB\s+0\.1\.0\s+cid-1/);
    assert.match(io.out, /orch-1\s+leader\s+orch-1\s+4\s+100\s+100\s+42\s+0\s/);
    assert.match(io.out, new RegExp(`${cluster.deadUrl}\\s+unreachable\\s+connect ECONNREFUSED`));
    assert.match(io.out, /^MEMBER\s+ROLE\s+PEER ADDRESS\s+MATCH INDEX\s+LAG\s+LEADER$/m);
    assert.match(io.out, /^orch-1\s+voter\s+127\.0\.0\.1:7001\s+100\s+0\s+yes$/m);
  }));

test('status -o json carries every replica and the membership', () =>
  withCluster(async (cluster) => {
    const io = recordingIo(cluster.dir);
    assert.equal(await runOrchctl(['status', '-o', 'json', '--kubeconfig', cluster.kubeconfigPath], io), 0, io.err);
    const report = JSON.parse(io.out) as { replicas: { reachable: boolean; lag?: number; status?: { name: string } }[]; membership: { leader: string } };
    assert.deepEqual(report.replicas.map((r) => [r.reachable, r.status?.name, r.lag]), [[true, 'orch-2', 3], [true, 'orch-1', 0], [false, undefined, undefined]]);
    assert.equal(report.membership.leader, 'orch-1');
  }));

test('status exits 1 with one line when no replica answers, after printing the rows', async () => {
  const cluster = await startStubCluster(0, { deadInKubeconfig: 'first' });
  try {
    const io = recordingIo(cluster.dir);
    assert.equal(await runOrchctl(['status', '--kubeconfig', cluster.kubeconfigPath], io), 1);
    assert.match(io.out, /unreachable/);
    assert.match(io.err, /^error: no replica answered \(1 tried\); [^\n]+\n$/);
  } finally {
    await cluster.close();
  }
});

test('--endpoints adds a replica the kubeconfig does not list', () =>
  withCluster(async (cluster) => {
    const extra = await startStubCluster(1);
    try {
      // The extra stub has its own CA, so it is listed but not trusted: a row that says why.
      const io = recordingIo(cluster.dir);
      await runOrchctl(['status', '--kubeconfig', cluster.kubeconfigPath, '--endpoints', extra.replicas[0]?.url ?? ''], io);
      assert.match(io.out, new RegExp(`${extra.replicas[0]?.url ?? ''}\\s+unreachable`));
      const bad = recordingIo(cluster.dir);
      assert.equal(await runOrchctl(['status', '--kubeconfig', cluster.kubeconfigPath, '--endpoints', 'ftp://x'], bad), 2);
    } finally {
      await extra.close();
    }
  }));

test('member add retries on the leader after the follower\'s 503, waits while it is behind, then promotes', () =>
  withCluster(async (cluster, state) => {
    state.promoteBehind = 1;
    const io = recordingIo(cluster.dir);
    assert.equal(await runOrchctl(['member', 'add', 'orch-3', '--peer-address', 'h3:7003', '--kubeconfig', cluster.kubeconfigPath], io), 0, io.err);
    assert.equal(io.out, 'member orch-3 added as a learner (peer address h3:7003)\nmember orch-3 promoted to voter\n');
    assert.match(io.err, /waiting: orch-3 is 120 entries behind the leader/);
    const added = cluster.replicas[1]?.received.find((r) => r.method === 'POST' && r.url === '/orch/v1/members');
    assert.deepEqual(JSON.parse(added?.body ?? '{}'), { name: 'orch-3', peerAddress: 'h3:7003', learner: true });
  }));

test('member add run again after a timed-out wait goes on to promote the learner already added', () =>
  withCluster(async (cluster, state) => {
    state.alreadyAdded = true;
    const io = recordingIo(cluster.dir);
    assert.equal(await runOrchctl(['member', 'add', 'orch-3', '--peer-address', 'h3:7003', '--kubeconfig', cluster.kubeconfigPath], io), 0, io.err);
    assert.equal(io.out, 'member orch-3 promoted to voter\n');
    assert.match(io.err, /member orch-3 already exists; promoting it when it has caught up/);
  }));

test('member add --learner stops after adding; --wait-timeout bounds the wait', () =>
  withCluster(async (cluster, state) => {
    const io = recordingIo(cluster.dir);
    assert.equal(await runOrchctl(['member', 'add', 'orch-3', '--peer-address', 'h3:7003', '--learner', '--kubeconfig', cluster.kubeconfigPath], io), 0, io.err);
    assert.equal(io.out, 'member orch-3 added as a learner (peer address h3:7003)\n');
    state.promoteBehind = 100;
    const waiting = recordingIo(cluster.dir);
    assert.equal(await runOrchctl(['member', 'add', 'orch-3', '--peer-address', 'h3:7003', '--wait-timeout', '500ms', '--kubeconfig', cluster.kubeconfigPath], waiting), 1);
    assert.match(waiting.err, /error: orch-3 was added as a learner but did not catch up within 500ms .*orchctl member promote orch-3\n$/);
  }));

test('member list, remove, promote and leader transfer reach the leader', () =>
  withCluster(async (cluster) => {
    const list = recordingIo(cluster.dir);
    assert.equal(await runOrchctl(['member', 'list', '--kubeconfig', cluster.kubeconfigPath], list), 0, list.err);
    assert.match(list.out, /^orch-2\s+voter\s+127\.0\.0\.1:7002\s+100\s+0\s*$/m, 'the leader\'s view, with lags');
    const remove = recordingIo(cluster.dir);
    assert.equal(await runOrchctl(['member', 'remove', 'orch-2', '--kubeconfig', cluster.kubeconfigPath], remove), 0, remove.err);
    assert.equal(remove.out, 'member orch-2 removed\n');
    const missing = recordingIo(cluster.dir);
    assert.equal(await runOrchctl(['member', 'remove', 'nobody', '--kubeconfig', cluster.kubeconfigPath], missing), 1);
    assert.match(missing.err, /^error: no member nobody \(404 NotFound from https:[^\n]+\n$/);
    const transfer = recordingIo(cluster.dir);
    assert.equal(await runOrchctl(['leader', 'transfer', 'orch-2', '--kubeconfig', cluster.kubeconfigPath], transfer), 0, transfer.err);
    assert.equal(transfer.out, 'leader: orch-2\n');
  }));
