import { test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'undici';
import { EtcdJsonClient } from '../../../bench/etcd-client.ts';
import { startStoreHttpServer } from '../../../bench/store-http.ts';
import { requestBodyBytesMax } from '../../../internal/apiserver/limits.ts';
import { openLocalStorage } from '../../../internal/storage/open-local-storage.ts';

test('the etcd client used for etcd drives the store shim over HTTP: put, upsert, range, miss', async () => {
  const storage = await openLocalStorage({ dataDir: ':memory:' });
  const server = await startStoreHttpServer({ storage, host: '127.0.0.1', port: 0, isReady: () => true });
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
  const server = await startStoreHttpServer({ storage, host: '127.0.0.1', port: 0, isReady: () => ready });
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
