// A replica that cannot reach a leader (here: one of two voters, the other never started, so no
// leader is ever elected) refuses `GET /orch/v1/snapshot` with a 503 instead of serving what may be
// stale data, and makes no copy.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { Agent, request } from 'undici';
import { Logger } from '../../../internal/logging/logger.ts';
import { startReplica, type Replica } from '../../../internal/replica/start-replica.ts';
import { freePorts } from '../../support/free-ports.ts';

const adminToken = 'stale-replica-snapshot-test-admin-token';

test('a replica with no leader to confirm its data answers the snapshot with a 503 and makes no copy', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'orch-stale-snapshot-'));
  const [peer, absentPeer] = await freePorts(2);
  const started: { replica?: Replica } = {};
  t.after(async () => {
    await started.replica?.stop().catch(() => {});
    await rm(dir, { recursive: true, force: true });
  });
  const dataDir = join(dir, 'orch-1');
  const replica = (started.replica = await startReplica({
    name: 'orch-1', dataDir, pkiDir: join(dir, 'pki'), adminToken, apiDomain: 'k8s.io', retentionMs: 60_000, tickMs: 20, electionTicks: 10,
    logger: Logger.create({ component: 'orch-apiserver', replica: 'orch-1', verbosity: 0, destination: { write: () => undefined } }),
    api: { host: '127.0.0.1', port: 0 }, peerListen: `127.0.0.1:${peer}`, peers: { 'orch-1': `127.0.0.1:${peer}`, 'orch-2': `127.0.0.1:${absentPeer}` },
  }));
  const dispatcher = new Agent({ connect: { ca: readFileSync(join(dir, 'pki', 'ca.crt'), 'utf8') } });
  t.after(() => dispatcher.close());
  const res = await request(`https://127.0.0.1:${replica.api.port}/orch/v1/snapshot`, { dispatcher, headers: { authorization: `Bearer ${adminToken}` } });
  const status = (await res.body.json()) as { reason: string; message: string };
  assert.equal(res.statusCode, 503, JSON.stringify(status));
  assert.equal(status.reason, 'ServiceUnavailable');
  assert.match(status.message, /^this replica cannot confirm it is current with the cluster's leader: .+; take the snapshot from another replica$/);
  const downloads = join(dataDir, 'snapshot-downloads');
  assert.deepEqual(existsSync(downloads) ? readdirSync(downloads) : [], []);
});
