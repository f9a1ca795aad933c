import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as grpc from '@grpc/grpc-js';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Transport } from '../../../raft/transport.ts';
import type { TransportHandlers } from '../../../raft/transport.ts';
import { loadRaftService } from '../../../raft/raft-service.ts';
import { snapshotDataFor } from '../../../raft/sqlite-log-storage.ts';
import { RaftNodeError } from '../../../raft/errors.ts';
import { index, term } from '../../../raft/core/types.ts';
import type { Message, MessageType } from '../../../raft/core/types.ts';
import { createCertificateAuthority, ensureClusterPki, issuePeerCertificate } from '../../../internal/certificates/index.ts';

function msg(type: MessageType, from: string, to: string, extra: Partial<Message> = {}): Message {
  return {
    type, from, to, term: term(1), logTerm: term(0), index: index(0), entries: [], commit: index(0), reject: false,
    rejectHint: index(0), rejectHintTerm: term(0), snapshot: null, leaderDurable: index(0), context: new Uint8Array(0), ...extra,
  };
}

interface Recorder extends TransportHandlers {
  messages: Message[];
  snapshots: { message: Message; filePath: string }[];
  snapshotStatus: { peer: string; ok: boolean }[];
  forwarded: Uint8Array[];
}

function recorder(): Recorder {
  const r: Recorder = {
    messages: [], snapshots: [], snapshotStatus: [], forwarded: [],
    onMessages: (ms) => r.messages.push(...ms),
    onSnapshot: (message, filePath) => (r.snapshots.push({ message, filePath }), true),
    onForward: async (data) => {
      r.forwarded.push(data);
      if (new TextDecoder().decode(data) === 'fail') throw new RaftNodeError('NotLeader', 'not me');
      return new Uint8Array([...data].reverse());
    },
    onUnreachable: () => {},
    onSnapshotStatus: (peer, ok) => r.snapshotStatus.push({ peer, ok }),
  };
  return r;
}

async function until(cond: () => boolean, what: string, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

test('two transports exchange messages, forwarded commands and a chunked snapshot over mutual TLS', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'orch-transport-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const pki = await ensureClusterPki(join(dir, 'pki'), ['a', 'b']);
  const ra = recorder();
  const rb = recorder();
  const tls = (n: 'a' | 'b') => ({ ca: pki.ca.cert, cert: pki.replicas[n]!.cert, key: pki.replicas[n]!.key });
  const b = await Transport.start({ id: 'b', listen: '127.0.0.1:0', peers: {}, tls: tls('b'), snapshotDir: join(dir, 'b'), handlers: rb });
  t.after(() => b.stop());
  const a = await Transport.start({ id: 'a', listen: '127.0.0.1:0', peers: { b: `127.0.0.1:${b.port}` }, tls: tls('a'), snapshotDir: join(dir, 'a'), handlers: ra });
  t.after(() => a.stop());
  b.setPeer('a', `https://127.0.0.1:${a.port}`);

  const entries = [
    { index: index(1), term: term(1), type: 'normal' as const, data: new Uint8Array([1, 2, 3]) },
    { index: index(2), term: term(1), type: 'confChange' as const, data: new Uint8Array([4]) },
  ];
  const rejection = { index: index(9), reject: true, rejectHint: index(4), rejectHintTerm: term(1) };
  a.send([msg('heartbeat', 'a', 'b'), msg('app', 'a', 'b', { entries, commit: index(1), leaderDurable: index(1), context: Uint8Array.of(1) }), msg('appResp', 'a', 'b', rejection)]);
  await until(() => rb.messages.length === 3, 'messages at b');
  assert.deepEqual(rb.messages.map((m) => m.type), ['heartbeat', 'app', 'appResp']);
  assert.deepEqual(rb.messages[1]!.entries.map((e) => [e.index, e.type, [...e.data]]), [[1, 'normal', [1, 2, 3]], [2, 'confChange', [4]]]);
  const { index: rejected, reject, rejectHint, rejectHintTerm } = rb.messages[2]!;
  assert.deepEqual({ index: rejected, reject, rejectHint, rejectHintTerm }, rejection);
  assert.equal(rb.messages[1]!.commit, 1);
  assert.equal(rb.messages[1]!.leaderDurable, 1, 'the leader\'s durable index crosses the wire');
  assert.deepEqual([...rb.messages[1]!.context], [1]);
  assert.equal(rb.messages[0]!.leaderDurable, 0);

  assert.deepEqual([...await a.forward('b', new Uint8Array([1, 2, 3]))], [3, 2, 1]);
  await assert.rejects(a.forward('b', new TextEncoder().encode('fail')), (e: unknown) => e instanceof RaftNodeError && e.code === 'NotLeader');

  const content = randomBytes(2.5 * 1024 * 1024);
  const snapFile = join(dir, 'snap.db');
  await writeFile(snapFile, content);
  const confState = { voters: ['a', 'b'], learners: [], votersOutgoing: [], learnersNext: [], autoLeave: false };
  a.send([msg('snap', 'a', 'b', { snapshot: { metadata: { index: index(7), term: term(2), confState }, data: snapshotDataFor(snapFile) } })]);
  await until(() => ra.snapshotStatus.length === 1, 'snapshot status');
  assert.deepEqual(ra.snapshotStatus, [{ peer: 'b', ok: true }]);
  const got = rb.snapshots[0]!;
  assert.equal(got.message.snapshot?.metadata.index, 7);
  assert.deepEqual(got.message.snapshot?.metadata.confState, confState);
  assert.equal(new TextDecoder().decode(got.message.snapshot?.data), got.filePath);
  assert.ok((await readFile(got.filePath)).equals(content));
});

test('the transport refuses clients without a certificate from the cluster CA, or whose certificate names no peer', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'orch-transport-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const pki = await ensureClusterPki(join(dir, 'pki'), ['b']);
  const rb = recorder();
  const b = await Transport.start({
    id: 'b', listen: '127.0.0.1:0', peers: {}, tls: { ca: pki.ca.cert, cert: pki.replicas.b!.cert, key: pki.replicas.b!.key },
    snapshotDir: join(dir, 'b'), handlers: rb,
  });
  t.after(() => b.stop());
  const Raft = loadRaftService();
  const rogueCa = await createCertificateAuthority('rogue');
  const rogue = await issuePeerCertificate(rogueCa, 'a');
  const attempts: [string, grpc.ChannelCredentials][] = [
    ['no client certificate', grpc.credentials.createSsl(Buffer.from(pki.ca.cert))],
    ['a certificate from another CA', grpc.credentials.createSsl(Buffer.from(pki.ca.cert), Buffer.from(rogue.key), Buffer.from(rogue.cert))],
  ];
  for (const [what, creds] of attempts) {
    const client = new Raft(`127.0.0.1:${b.port}`, creds, { 'grpc.ssl_target_name_override': 'localhost' });
    try {
      const err = await new Promise<grpc.ServiceError | null>((resolve) => {
        (client as unknown as { Forward: (r: unknown, o: unknown, cb: (e: grpc.ServiceError | null) => void) => void })
          .Forward({ data: new Uint8Array([1]) }, { deadline: Date.now() + 3000 }, resolve);
      });
      assert.ok(err, `${what}: the call must fail`);
      assert.equal(err.code, grpc.status.UNAVAILABLE, `${what}: ${err.message}`);
    } finally {
      client.close();
    }
  }
  const outsider = await issuePeerCertificate(pki.ca, 'kubectl-user');
  const client = new Raft(`127.0.0.1:${b.port}`, grpc.credentials.createSsl(Buffer.from(pki.ca.cert), Buffer.from(outsider.key), Buffer.from(outsider.cert)), { 'grpc.ssl_target_name_override': 'localhost' });
  try {
    const err = await new Promise<grpc.ServiceError | null>((resolve) => {
      (client as unknown as { Forward: (r: unknown, o: unknown, cb: (e: grpc.ServiceError | null) => void) => void })
        .Forward({ data: new Uint8Array([1]) }, { deadline: Date.now() + 3000 }, resolve);
    });
    assert.equal(err?.code, grpc.status.PERMISSION_DENIED, 'a cluster-CA certificate that names no peer is refused');
  } finally {
    client.close();
  }
  assert.equal(rb.forwarded.length, 0);
});

test('an interrupted snapshot transfer is discarded: no snapshot is handed over and no file is left', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'orch-transport-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const pki = await ensureClusterPki(join(dir, 'pki'), ['a', 'b']);
  const rb = recorder();
  const snapshotDir = join(dir, 'b');
  const b = await Transport.start({
    id: 'b', listen: '127.0.0.1:0', peers: { a: '127.0.0.1:1' }, tls: { ca: pki.ca.cert, cert: pki.replicas.b!.cert, key: pki.replicas.b!.key },
    snapshotDir, handlers: rb,
  });
  t.after(() => b.stop());
  const Raft = loadRaftService();
  const creds = grpc.credentials.createSsl(Buffer.from(pki.ca.cert), Buffer.from(pki.replicas.a!.key), Buffer.from(pki.replicas.a!.cert));
  const client = new Raft(`127.0.0.1:${b.port}`, creds, { 'grpc.ssl_target_name_override': 'localhost' });
  t.after(() => client.close());
  const done = new Promise<grpc.ServiceError | null>((resolve) => {
    const call = (client as unknown as { Snapshot: (cb: (e: grpc.ServiceError | null) => void) => grpc.ClientWritableStream<unknown> }).Snapshot(resolve);
    const confState = { voters: ['a', 'b'], learners: [], votersOutgoing: [], learnersNext: [], autoLeave: false };
    call.write({ message: { type: 'snap', from: 'a', to: 'b', term: 1, snapshot: { index: 5, term: 1, confState } }, data: randomBytes(1000), last: false });
    setTimeout(() => call.cancel(), 200);
  });
  assert.equal((await done)?.code, grpc.status.CANCELLED);
  let left = await readdir(snapshotDir);
  for (let i = 0; i < 100 && left.length > 0; i++) {
    await new Promise((r) => setTimeout(r, 20));
    left = await readdir(snapshotDir);
  }
  assert.deepEqual(left, []);
  assert.equal(rb.snapshots.length, 0);
});
