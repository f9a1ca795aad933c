// A replica that cannot reach a leader (here: one of two voters, the other never started, so no
// leader is ever elected) refuses `GET /orch/v1/snapshot` with a 503 instead of serving what may be
// stale data, and makes no copy.
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { request } from 'undici';
import { startOneReplica } from './one-replica.ts';

const adminToken = 'stale-replica-snapshot-test-admin-token';

test('a replica with no leader to confirm its data answers the snapshot with a 503 and makes no copy', async (t) => {
  const { replica, dataDir, dispatcher } = await startOneReplica(t, { dirPrefix: 'orch-stale-snapshot-', adminToken, otherPeers: 1 });
  const res = await request(`https://127.0.0.1:${replica.api.port}/orch/v1/snapshot`, { dispatcher, headers: { authorization: `Bearer ${adminToken}` } });
  const status = (await res.body.json()) as { reason: string; message: string };
  assert.equal(res.statusCode, 503, JSON.stringify(status));
  assert.equal(status.reason, 'ServiceUnavailable');
  assert.match(status.message, /^this replica cannot confirm it is current with the cluster's leader: .+; take the snapshot from another replica$/);
  const downloads = join(dataDir, 'snapshot-downloads');
  assert.deepEqual(existsSync(downloads) ? readdirSync(downloads) : [], []);
});
