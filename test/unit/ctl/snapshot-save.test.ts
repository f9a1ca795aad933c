import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { runOrchctl } from '../../../internal/ctl/dispatcher.ts';
import { encodeSnapshotHeader, type SnapshotHeader } from '../../../internal/storage/snapshot-file.ts';
import { recordingIo, sendStatus, startStubCluster, stubToken, type StubCluster } from './stub-replicas.ts';

const data = Buffer.alloc(300_000, 7);

function header(overrides: Partial<SnapshotHeader> = {}): SnapshotHeader {
  return {
    format: 1, revision: 1234, raftIndex: 5678, raftTerm: 3, clusterId: 'c-1', replica: 'orch-2', createdAt: '2026-11-27T20:00:00Z', stateFormat: 1,
    size: data.length, sha256: createHash('sha256').update(data).digest('hex'), ...overrides,
  };
}

/** Makes every stub serve `body` (header line + data) at /orch/v1/snapshot, cut after `cutAt` bytes when given. */
function serveSnapshot(cluster: StubCluster, body: Buffer, cutAt?: number): void {
  for (const replica of cluster.replicas) {
    replica.handler = (req, res) => {
      if (req.url !== '/orch/v1/snapshot') return sendStatus(res, 404, 'NotFound', 'no');
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(body.length) });
      if (cutAt === undefined) return res.end(body);
      res.write(body.subarray(0, cutAt), () => res.destroy());
    };
  }
}

async function withStubs(body: (cluster: StubCluster) => Promise<void>): Promise<void> {
  const cluster = await startStubCluster(1);
  try {
    await body(cluster);
  } finally {
    await cluster.close();
  }
}

test('snapshot save writes the verified file, prints its header, and snapshot status reads it back', () =>
  withStubs(async (cluster) => {
    serveSnapshot(cluster, Buffer.concat([encodeSnapshotHeader(header()), data]));
    const io = recordingIo(cluster.dir);
    assert.equal(await runOrchctl(['snapshot', 'save', 'backup.snap', '--kubeconfig', cluster.kubeconfigPath], io), 0, io.err);
    assert.match(io.out, /revision:\s+1234/);
    assert.match(io.out, /raft index:\s+5678/);
    assert.match(io.out, new RegExp(`sha256:\\s+${header().sha256}`));
    assert.equal(cluster.replicas[0]?.received[0]?.headers.authorization, `Bearer ${stubToken}`);
    const file = join(cluster.dir, 'backup.snap');
    assert.deepEqual(readFileSync(file).subarray(-data.length), data);
    assert.ok(!existsSync(`${file}.part`));
    const status = recordingIo(cluster.dir);
    assert.equal(await runOrchctl(['snapshot', 'status', 'backup.snap'], status), 0, status.err);
    assert.match(status.out, /backup\.snap: valid\n[\s\S]*revision:\s+1234/);
  }));

test('a snapshot whose data does not match its sha256 is refused and leaves no file', () =>
  withStubs(async (cluster) => {
    const corrupt = Buffer.from(data);
    corrupt[1000] = 8;
    serveSnapshot(cluster, Buffer.concat([encodeSnapshotHeader(header()), corrupt]));
    const io = recordingIo(cluster.dir);
    assert.equal(await runOrchctl(['snapshot', 'save', 'backup.snap', '--kubeconfig', cluster.kubeconfigPath], io), 1);
    assert.match(io.err, /^error: the snapshot from https:\/\/127\.0\.0\.1:\d+ is corrupt \(sha256 [0-9a-f]{64}, its header says [0-9a-f]{64}\); retry, or try another --endpoint\n$/);
    assert.deepEqual(readdirSync(cluster.dir).filter((f) => f.startsWith('backup')), []);
  }));

test('a download cut short is refused and leaves no file', () =>
  withStubs(async (cluster) => {
    const body = Buffer.concat([encodeSnapshotHeader(header()), data]);
    serveSnapshot(cluster, body, body.length - 1000);
    const io = recordingIo(cluster.dir);
    assert.equal(await runOrchctl(['snapshot', 'save', 'backup.snap', '--kubeconfig', cluster.kubeconfigPath], io), 1);
    assert.match(io.err, /^error: [^\n]+\n$/);
    assert.deepEqual(readdirSync(cluster.dir).filter((f) => f.startsWith('backup')), []);
  }));

test('more data than the header announces is refused', () =>
  withStubs(async (cluster) => {
    serveSnapshot(cluster, Buffer.concat([encodeSnapshotHeader(header({ size: data.length - 10 })), data]));
    const io = recordingIo(cluster.dir);
    assert.equal(await runOrchctl(['snapshot', 'save', 'backup.snap', '--kubeconfig', cluster.kubeconfigPath], io), 1);
    assert.match(io.err, /sent more than the 299990 bytes its snapshot header announces/);
    assert.deepEqual(readdirSync(cluster.dir).filter((f) => f.startsWith('backup')), []);
  }));

test('an answer that is not a snapshot file is refused', () =>
  withStubs(async (cluster) => {
    serveSnapshot(cluster, Buffer.from('<html>hello</html>\n'));
    const io = recordingIo(cluster.dir);
    assert.equal(await runOrchctl(['snapshot', 'save', 'backup.snap', '--kubeconfig', cluster.kubeconfigPath], io), 1);
    assert.match(io.err, /did not send an orch snapshot file/);
  }));

test('snapshot save copies from the first replica that answers; --endpoint picks one', async () => {
  const cluster = await startStubCluster(1, { deadInKubeconfig: 'first' });
  try {
    serveSnapshot(cluster, Buffer.concat([encodeSnapshotHeader(header()), data]));
    const io = recordingIo(cluster.dir);
    assert.equal(await runOrchctl(['snapshot', 'save', 'a.snap', '--kubeconfig', cluster.kubeconfigPath], io), 0, io.err);
    assert.match(io.out, new RegExp(`saved .*a\\.snap from ${cluster.replicas[0]?.url ?? ''}`));
    const dead = recordingIo(cluster.dir);
    assert.equal(await runOrchctl(['snapshot', 'save', 'b.snap', '--kubeconfig', cluster.kubeconfigPath, '--endpoint', cluster.deadUrl], dead), 1);
    assert.match(dead.err, /^error: [^\n]*ECONNREFUSED[^\n]*\n$/);
    assert.ok(!existsSync(join(cluster.dir, 'b.snap')));
  } finally {
    await cluster.close();
  }
});

test('snapshot status refuses a corrupt file with one line', () =>
  withStubs(async (cluster) => {
    serveSnapshot(cluster, Buffer.concat([encodeSnapshotHeader(header()), data]));
    const io = recordingIo(cluster.dir);
    assert.equal(await runOrchctl(['snapshot', 'save', 'x.snap', '--kubeconfig', cluster.kubeconfigPath], io), 0, io.err);
    const { writeFileSync } = await import('node:fs');
    const file = join(cluster.dir, 'x.snap');
    const bytes = readFileSync(file);
    bytes[bytes.length - 1] = 9;
    writeFileSync(file, bytes);
    const status = recordingIo(cluster.dir);
    assert.equal(await runOrchctl(['snapshot', 'status', 'x.snap'], status), 1);
    assert.match(status.err, /^error: [^\n]*x\.snap: the snapshot file is corrupt[^\n]*\n$/);
    const missing = recordingIo(cluster.dir);
    assert.equal(await runOrchctl(['snapshot', 'status', 'nope.snap'], missing), 1);
    assert.match(missing.err, /nope\.snap: no such file/);
  }));
