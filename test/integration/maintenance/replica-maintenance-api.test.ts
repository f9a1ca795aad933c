// The maintenance API on an in-process replica (startReplica, one voter): its status and members
// as the Raft node and the store have them, membership changes through the real node, and a
// snapshot download whose header and checksum verify and whose copy is gone afterwards.
import assert from 'node:assert/strict';
import { createWriteStream, readFileSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { test } from 'node:test';
import { request } from 'undici';
import type { ReplicaStatus } from '../../../internal/apiserver/maintenance/backend.ts';
import { verifySnapshotFile } from '../../../internal/storage/snapshot-file.ts';
import { orchRelease } from '../../../internal/version.ts';
import { startOneReplica } from './one-replica.ts';

const adminToken = 'replica-maintenance-test-admin-token';

async function until(done: () => boolean | Promise<boolean>, what: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

test('a replica serves its status, members, membership changes and a snapshot that verifies', async (t) => {
  const { replica, dir, dataDir, peerAddress, dispatcher, url } = await startOneReplica(t, { dirPrefix: 'orch-maintenance-', adminToken });
  const raft = replica.raft;
  await until(() => raft.isLeader(), 'orch-1 leads', 10_000);
  const call = async (method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<{ status: number; json: unknown }> => {
    const res = await request(`${url}${path}`, {
      method, dispatcher, headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.body.text();
    return { status: res.statusCode, json: text === '' ? undefined : JSON.parse(text) };
  };
  await until(async () => (await call('POST', '/api/v1/namespaces/default/configmaps', { metadata: { name: 'kept' }, data: { a: 'b' } })).status === 201, 'a configmap written', 20_000);
  const written = await call('GET', '/api/v1/namespaces/default/configmaps/kept');
  const writtenRevision = Number((written.json as { metadata: { resourceVersion: string } }).metadata.resourceVersion);

  const statusAnswer = await call('GET', '/orch/v1/status');
  assert.equal(statusAnswer.status, 200);
  const status = statusAnswer.json as ReplicaStatus;
  assert.equal(status.name, 'orch-1');
  assert.equal(status.version, orchRelease);
  assert.deepEqual(status.formats, { log: 1, state: 1, snapshot: 1 });
  assert.equal(status.clusterId, raft.clusterId());
  assert.match(status.clusterId, /^[0-9a-f]{16}$/);
  assert.equal(status.role, 'leader');
  assert.equal(status.leader, 'orch-1');
  assert.ok(status.term >= 1);
  assert.ok(status.commitIndex >= status.appliedIndex && status.appliedIndex > 0, JSON.stringify(status));
  assert.ok(status.firstIndex <= status.lastIndex && status.lastIndex >= status.commitIndex, JSON.stringify(status));
  assert.ok(status.revision >= writtenRevision, `revision ${status.revision} < ${writtenRevision}`);
  assert.ok(status.dbSizeBytes.state > 0 && status.dbSizeBytes.log > 0, JSON.stringify(status.dbSizeBytes));
  assert.deepEqual(status.members.map((m) => [m.name, m.peerAddress, m.role]), [['orch-1', peerAddress, 'voter']]);

  const members = await call('GET', '/orch/v1/members');
  assert.equal(members.status, 200);
  assert.equal((members.json as { leader: string }).leader, 'orch-1');

  // A learner nobody runs: added, too far behind to promote, a learner cannot lead, then removed.
  const added = await call('POST', '/orch/v1/members', { name: 'orch-9', peerAddress: '127.0.0.1:9' });
  assert.equal(added.status, 201, JSON.stringify(added.json));
  assert.equal((added.json as { role: string }).role, 'learner');
  assert.equal((await call('POST', '/orch/v1/members', { name: 'orch-9', peerAddress: '127.0.0.1:9' })).status, 409);
  const promote = await call('POST', '/orch/v1/members/orch-9/promote');
  assert.equal(promote.status, 409, JSON.stringify(promote.json));
  assert.match((promote.json as { message: string }).message, /entries behind|acknowledged no entry/);
  assert.equal((await call('POST', '/orch/v1/members/orch-1/promote')).status, 400);
  assert.equal((await call('POST', '/orch/v1/leader', { target: 'orch-9' })).status, 400);
  assert.equal((await call('POST', '/orch/v1/leader', { target: 'orch-7' })).status, 404);
  assert.deepEqual((await call('POST', '/orch/v1/leader', { target: 'orch-1' })).json, { leader: 'orch-1' });
  assert.deepEqual((await call('DELETE', '/orch/v1/members/orch-9')).json, { removed: 'orch-9' });
  assert.equal((await call('DELETE', '/orch/v1/members/orch-1')).status, 409);
  assert.deepEqual(raft.members().map((m) => m.id), ['orch-1']);

  const res = await request(`${url}/orch/v1/snapshot`, { dispatcher, headers: { authorization: `Bearer ${adminToken}` } });
  assert.equal(res.statusCode, 200);
  const file = join(dir, 'downloaded.snapshot');
  await pipeline(res.body, createWriteStream(file));
  const { header } = await verifySnapshotFile(file);
  assert.equal(header.replica, 'orch-1');
  assert.equal(header.clusterId, status.clusterId);
  assert.ok(header.revision >= writtenRevision, `snapshot revision ${header.revision} < ${writtenRevision}`);
  assert.ok(header.raftIndex >= status.appliedIndex);
  assert.equal(header.stateFormat, 1);
  assert.equal(Number(res.headers['content-length']), readFileSync(file).length);
  await until(async () => (await readdir(join(dataDir, 'snapshot-downloads'))).length === 0, 'the download copy removed', 5_000);
});
