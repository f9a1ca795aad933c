import { test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'undici';
import { EtcdJsonClient } from '../../../bench/etcd-client.ts';
import { TimingRecorder, takeServerTimings } from '../../../bench/server-timings.ts';
import { startStoreHttpServer } from '../../../bench/store-http.ts';
import { requestBodyBytesMax } from '../../../internal/apiserver/limits.ts';
import { openLocalStorage } from '../../../internal/storage/open-local-storage.ts';

test('the etcd client used for etcd drives the store shim over HTTP: put, upsert, range, miss', async () => {
  const storage = await openLocalStorage({ dataDir: ':memory:' });
  const server = await startStoreHttpServer({ storage, host: '127.0.0.1', port: 0, isReady: () => true, takeTimings: () => new TimingRecorder().take() });
  const client = new EtcdJsonClient([`http://127.0.0.1:${server.port}`], { connectionsPerMember: 2, timeoutMs: 5_000 });
  try {
    await client.put(0, '/bench/a', 'one');
    await client.put(1, '/bench/a', 'two');
    await client.get(0, '/bench/a');
    assert.equal(Buffer.from((await storage.get('/bench/a'))?.value ?? []).toString(), 'two');
    await assert.rejects(client.get(0, '/bench/missing'), /not found/);
  } finally {
    await client.close();
    await server.close();
    await storage.close();
  }
});

test('readiness follows isReady, and a body over the limit answers 413 without reaching the store', async () => {
  const storage = await openLocalStorage({ dataDir: ':memory:' });
  let ready = false;
  const server = await startStoreHttpServer({ storage, host: '127.0.0.1', port: 0, isReady: () => ready, takeTimings: () => new TimingRecorder().take() });
  const url = `http://127.0.0.1:${server.port}`;
  try {
    const before = await request(`${url}/ready`);
    assert.equal(before.statusCode, 503);
    assert.match(await before.body.text(), /no leader/);
    ready = true;
    const after = await request(`${url}/ready`);
    assert.equal(after.statusCode, 200);
    await after.body.dump();
    const big = JSON.stringify({ key: Buffer.from('k').toString('base64'), value: 'A'.repeat(requestBodyBytesMax + 4) });
    const tooLarge = await request(`${url}/v3/kv/put`, { method: 'POST', body: big, headers: { 'content-type': 'application/json' } });
    assert.equal(tooLarge.statusCode, 413);
    assert.match(await tooLarge.body.text(), /"error":"Request entity too large/);
    assert.equal(storage.localRevision(), 0);
  } finally {
    await server.close();
    await storage.close();
  }
});

test("GET /timings hands over the replica's samples since the last call, summarized over every replica", async () => {
  const storage = await openLocalStorage({ dataDir: ':memory:' });
  const recorders = [new TimingRecorder(), new TimingRecorder()];
  const servers = await Promise.all(recorders.map((r) => startStoreHttpServer({ storage, host: '127.0.0.1', port: 0, isReady: () => true, takeTimings: () => r.take() })));
  const urls = servers.map((s) => `http://127.0.0.1:${s.port}`);
  try {
    recorders[0]!.logSynced(0.001);
    recorders[1]!.logSynced(0.003);
    recorders[1]!.committed(0.002);
    recorders[1]!.applied(0.0005);
    const first = await takeServerTimings(urls);
    assert.deepEqual([first.fsync.count, first.fsync.p50Ms, first.fsync.maxMs], [2, 1, 3]);
    assert.deepEqual([first.commit.count, first.commit.p50Ms], [1, 2]);
    assert.deepEqual([first.apply.count, first.apply.p50Ms], [1, 0.5]);
    const second = await takeServerTimings(urls);
    assert.deepEqual([second.fsync.count, second.commit.count, second.apply.count], [0, 0, 0]);
    const post = await request(`${urls[0]}/timings`, { method: 'POST' });
    assert.equal(post.statusCode, 405);
    await post.body.dump();
  } finally {
    await Promise.all(servers.map((s) => s.close()));
    await storage.close();
  }
});
