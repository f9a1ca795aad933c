import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import { Logger } from '../../../internal/logging/logger.ts';
import { startReplica, type Replica } from '../../../internal/replica/start-replica.ts';
import { freePorts } from '../../support/free-ports.ts';
import { until } from './toy-cluster.ts';

const adminToken = 'replica-join-test-admin-token';

test('a replica started with --join on an empty data directory is added, promoted, and then serves readyz, reads and writes', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'orch-replica-join-'));
  const pkiDir = join(dir, 'pki'); // one cluster CA: each replica's peer certificate is issued from it
  const [peer1, peer2] = await freePorts(2);
  const lines: string[] = [];
  const logger = (name: string): Logger => Logger.create({ component: 'orch-apiserver', replica: name, verbosity: 0, destination: { write: (line: string) => void lines.push(line) } });
  const replicas: Replica[] = [];
  t.after(async () => {
    for (const r of replicas.reverse()) {
      const started = Date.now();
      await r.stop().catch(() => {});
      t.diagnostic(`${r.raft.id} stopped in ${Date.now() - started} ms`);
    }
    await rm(dir, { recursive: true, force: true });
  });
  const common = { pkiDir, adminToken, apiDomain: 'k8s.io', retentionMs: 60_000, tickMs: 20, electionTicks: 10, snapshotEveryEntries: 20, snapshotCatchUpEntries: 2 };
  const first = await startReplica({
    ...common, name: 'orch-1', dataDir: join(dir, 'orch-1'), logger: logger('orch-1'),
    api: { host: '127.0.0.1', port: 0 }, peerListen: `127.0.0.1:${peer1}`, peers: { 'orch-1': `127.0.0.1:${peer1}` },
  });
  replicas.push(first);
  await until(() => first.raft.isLeader(), 'orch-1 leads', 10_000);
  const second = await startReplica({
    ...common, name: 'orch-2', dataDir: join(dir, 'orch-2'), logger: logger('orch-2'),
    api: { host: '127.0.0.1', port: 0 }, peerListen: `127.0.0.1:${peer2}`, peers: { 'orch-2': `127.0.0.1:${peer2}` },
    join: [`127.0.0.1:${peer1}`], initialClusterState: 'existing',
  });
  replicas.push(second);
  await Promise.race([second.raft.joined(), new Promise((_, reject) => setTimeout(() => reject(new Error(`not joined:\n${lines.filter((l) => l.includes('raft join')).join('\n')}`)), 20_000).unref())]);
  assert.deepEqual(first.raft.members().map((m) => [m.id, m.role]), [['orch-1', 'voter'], ['orch-2', 'voter']]);
  assert.ok(lines.some((l) => l.includes('raft join: promoted to voter')));

  const ca = (await import('node:fs')).readFileSync(join(pkiDir, 'ca.crt'), 'utf8');
  const dispatcher = new Agent({ connect: { ca } });
  t.after(() => dispatcher.close());
  const url = `https://127.0.0.1:${second.api.port}`;
  const call = async (method: 'GET' | 'POST', path: string, body?: unknown): Promise<{ status: number; text: string }> => {
    const res = await request(`${url}${path}`, {
      method, dispatcher, headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: res.statusCode, text: await res.body.text() };
  };
  // The API's own start-up (informers, RBAC's bootstrap roles) waited for the membership; it settles now.
  let ready = await call('GET', '/readyz?verbose');
  const deadline = Date.now() + 30_000;
  while (ready.status !== 200 && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 200));
    ready = await call('GET', '/readyz?verbose');
  }
  assert.equal(ready.status, 200, ready.text);
  assert.match(ready.text, /raft-quorum ok/);
  const created = await call('POST', '/api/v1/namespaces/default/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'joined' }, data: { a: 'b' } });
  assert.equal(created.status, 201, created.text);
  const read = await call('GET', '/api/v1/namespaces/default/configmaps/joined');
  assert.equal(read.status, 200, read.text);
});
