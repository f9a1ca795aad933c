// The maintenance API on an in-process replica (startReplica, one voter): its status and members
// as the Raft node and the store have them, membership changes through the real node, and a
// snapshot download whose header and checksum verify and whose copy is gone afterwards.
import assert from 'node:assert/strict';
import { createWriteStream, existsSync, readFileSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { test } from 'node:test';
import { Agent, request } from 'undici';
import type { ReplicaStatus } from '../../../internal/apiserver/maintenance/backend.ts';
import { Logger } from '../../../internal/logging/logger.ts';
import { startReplica, type Replica } from '../../../internal/replica/start-replica.ts';
import { verifySnapshotFile } from '../../../internal/storage/snapshot-file.ts';
import { freePorts } from '../../support/free-ports.ts';

const adminToken = 'replica-maintenance-test-admin-token';
// The repository's package.json: three folders up from the source, four from the compiled test in dist/.
const packageFile = [new URL('../../../package.json', import.meta.url), new URL('../../../../package.json', import.meta.url)].find((url) => existsSync(url) && (JSON.parse(readFileSync(url, 'utf8')) as { name?: string }).name === 'orch');
const packageVersion = packageFile === undefined ? 'unknown' : (JSON.parse(readFileSync(packageFile, 'utf8')) as { version: string }).version;

async function until(done: () => boolean | Promise<boolean>, what: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

test('a replica serves its status, members, membership changes and a snapshot that verifies', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'orch-maintenance-'));
  const [peer] = await freePorts(1);
  const started: { replica?: Replica } = {};
  t.after(async () => {
    await started.replica?.stop().catch(() => {});
    await rm(dir, { recursive: true, force: true });
  });
  const dataDir = join(dir, 'orch-1');
  const replica = (started.replica = await startReplica({
    name: 'orch-1', dataDir, pkiDir: join(dir, 'pki'), adminToken, apiDomain: 'k8s.io', retentionMs: 60_000, tickMs: 20, electionTicks: 10,
    logger: Logger.create({ component: 'orch-apiserver', replica: 'orch-1', verbosity: 0, destination: { write: () => undefined } }),
    api: { host: '127.0.0.1', port: 0 }, peerListen: `127.0.0.1:${peer}`, peers: { 'orch-1': `127.0.0.1:${peer}` },
  }));
  const raft = replica.raft;
  await until(() => raft.isLeader(), 'orch-1 leads', 10_000);
  const dispatcher = new Agent({ connect: { ca: readFileSync(join(dir, 'pki', 'ca.crt'), 'utf8') } });
  t.after(() => dispatcher.close());
  const url = `https://127.0.0.1:${replica.api.port}`;
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
  assert.equal(status.version, packageVersion);
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
  assert.deepEqual(status.members.map((m) => [m.name, m.peerAddress, m.role]), [['orch-1', `127.0.0.1:${peer}`, 'voter']]);

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
