// Snapshot downloads that do not end well (internal/apiserver/maintenance/snapshot-download.ts):
// an HTTP/2 client that resets its stream, and one that stops reading, each give back the copy
// on disk and the download slot, so later downloads are served.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { connect, constants, createServer, type ClientHttp2Session, type ClientHttp2Stream } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { serveSnapshot } from '../../../../internal/apiserver/maintenance/snapshot-download.ts';
import { Responder } from '../../../../internal/apiserver/respond.ts';
import { ReplicaMaintenance, snapshotDownloadsMax, type MaintainedNode, type MaintenanceBackendOptions } from '../../../../internal/replica/maintenance-backend.ts';
import { RaftNodeError } from '../../../../raft/index.ts';
import { SqliteStateMachine } from '../../../../internal/storage/sqlite-state-machine.ts';
import { startTestServer, testToken } from '../harness.ts';

const dir = mkdtempSync(join(tmpdir(), 'orch-snapshot-download-'));
const machine = SqliteStateMachine.open(join(dir, 'state.db'));
after(() => {
  machine.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A follower that confirms every read at once. */
const node = {
  id: 'orch-2', isLeader: () => false, leaderId: () => 'orch-1', clusterId: () => 'c0ffee', termAt: () => 3, members: () => [], readIndex: () => Promise.resolve(9),
} as unknown as MaintainedNode;

function replicaBackend(dataDir: string, raft: MaintainedNode = node): ReplicaMaintenance {
  const storage = { stateMachine: machine, localRevision: () => machine.currentRevision() } as unknown as MaintenanceBackendOptions['storage'];
  return new ReplicaMaintenance({ raft, storage, dataDir });
}

function copiesIn(dataDir: string): string[] {
  const downloads = join(dataDir, 'snapshot-downloads');
  return existsSync(downloads) ? readdirSync(downloads) : [];
}

async function until(done: () => boolean, what: string, timeoutMs = 3000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

test('a replica that cannot confirm it is current answers 503 naming why, and makes no copy', async (t) => {
  const dataDir = join(dir, 'removed');
  const removed = { ...node, readIndex: () => Promise.reject(new RaftNodeError('Timeout', 'read index not confirmed within 30 ticks')) } as unknown as MaintainedNode;
  const server = await startTestServer({ maintenance: replicaBackend(dataDir, removed) });
  t.after(() => server.close());
  const res = await server.client.call('GET', '/orch/v1/snapshot');
  assert.equal(res.status, 503, res.text);
  const status = res.json as { reason: string; message: string };
  assert.equal(status.reason, 'ServiceUnavailable');
  assert.equal(status.message, "this replica cannot confirm it is current with the cluster's leader: read index not confirmed within 30 ticks; take the snapshot from another replica");
  assert.equal(res.headers['retry-after'], '1');
  assert.deepEqual(copiesIn(dataDir), []);
});

/** Asks for the snapshot on `session` and resolves with the stream once the headers came. */
function askSnapshot(session: ClientHttp2Session, headers: Record<string, string> = {}): Promise<{ stream: ClientHttp2Stream; status: number }> {
  const stream = session.request({ ':path': '/orch/v1/snapshot', ...headers });
  return new Promise((resolve, reject) => {
    stream.once('response', (h) => resolve({ stream, status: Number(h[':status']) }));
    stream.once('error', reject);
  });
}

/**
 * A client that takes nothing: a stream window of 0 lets no byte of the body through, so the
 * server's writes back up at once, as a client that stopped reading makes them.
 */
const notReading = { settings: { initialWindowSize: 0 } };

test('HTTP/2 downloads reset by the client give back their copies and slots: a third download is served whole', async (t) => {
  const dataDir = join(dir, 'aborted');
  const server = await startTestServer({ maintenance: replicaBackend(dataDir) });
  const auth = { authorization: `Bearer ${testToken}` };
  const sessions: ClientHttp2Session[] = [];
  t.after(async () => {
    for (const session of sessions) session.destroy();
    await server.close();
  });
  const stalled = connect(server.baseUrl, { ca: server.tls.cert, ...notReading });
  sessions.push(stalled);
  const aborted = [];
  for (let i = 0; i < snapshotDownloadsMax; i++) aborted.push(await askSnapshot(stalled, auth));
  assert.deepEqual(aborted.map((a) => a.status), [200, 200]);
  assert.equal(copiesIn(dataDir).length, snapshotDownloadsMax);
  for (const { stream } of aborted) stream.close(constants.NGHTTP2_CANCEL);
  await until(() => copiesIn(dataDir).length === 0, 'the aborted downloads’ copies removed');

  const reading = connect(server.baseUrl, { ca: server.tls.cert });
  sessions.push(reading);
  const whole = await askSnapshot(reading, auth);
  assert.equal(whole.status, 200);
  const chunks: Buffer[] = [];
  for await (const chunk of whole.stream) chunks.push(chunk as Buffer);
  const file = Buffer.concat(chunks);
  assert.match(file.subarray(0, 14).toString('latin1'), /^ORCH-SNAPSHOT /);
  await until(() => copiesIn(dataDir).length === 0, 'the finished download’s copy removed');
});

test('a client that stops reading is cut after the stall timeout, its copy and slot given back', async (t) => {
  const dataDir = join(dir, 'stalled');
  const backend = replicaBackend(dataDir);
  const failures: unknown[] = [];
  // Plain HTTP/2 (h2c) with the handler alone: the stall timeout is injected, short.
  const server = createServer((_req, res) => {
    const out = new Responder(res, { format: 'json', pretty: false, gzip: false });
    serveSnapshot(backend, out, (_message, err) => failures.push(err), { stallTimeoutMs: 200 }).catch((err: unknown) => failures.push(err));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const session = connect(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, notReading);
  t.after(async () => {
    session.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  const started = Date.now();
  const stuck = await askSnapshot(session);
  assert.equal(stuck.status, 200);
  assert.equal(copiesIn(dataDir).length, 1);
  const closed = new Promise<number>((resolve) => stuck.stream.once('close', () => resolve(stuck.stream.rstCode ?? -1)));
  stuck.stream.on('error', () => undefined);
  const rstCode = await closed;
  assert.notEqual(rstCode, constants.NGHTTP2_NO_ERROR, 'a cut download ends with a reset stream, never a clean end');
  assert.ok(Date.now() - started >= 150, 'cut only after the stall timeout');
  await until(() => copiesIn(dataDir).length === 0, 'the stalled download’s copy removed');
  // Both slots are free again.
  const again = await Promise.all([backend.openSnapshot(), backend.openSnapshot()]);
  for (const download of again) await download.release();
  assert.deepEqual(failures, []);
});
