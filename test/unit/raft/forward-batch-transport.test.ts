import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Transport } from '../../../raft/transport.ts';
import type { TransportHandlers } from '../../../raft/transport.ts';
import { RaftNodeError } from '../../../raft/errors.ts';
import type { RaftNodeErrorCode } from '../../../raft/errors.ts';
import { ensureClusterPki } from '../../../internal/certificates/index.ts';

const enc = (s: string): Uint8Array => new TextEncoder().encode(s);
const text = (b: Uint8Array): string => new TextDecoder().decode(b);

function isCode(code: RaftNodeErrorCode): (e: unknown) => boolean {
  return (e: unknown) => e instanceof RaftNodeError && e.code === code;
}

/** A forward handler that records in which turn of the event loop each command arrived. */
function leaderHandlers(): TransportHandlers & { arrivals: { command: string; turn: number }[]; release(): void } {
  let turn = 0;
  const bump = (): void => {
    turn++;
    timer = setImmediate(bump);
  };
  let timer = setImmediate(bump);
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  const h = {
    arrivals: [] as { command: string; turn: number }[],
    release: () => {
      release();
      clearImmediate(timer);
    },
    onMessages: () => {},
    onSnapshot: () => false,
    onUnreachable: () => {},
    onSnapshotStatus: () => {},
    onForward: async (data: Uint8Array): Promise<Uint8Array> => {
      const command = text(data);
      h.arrivals.push({ command, turn });
      if (command.startsWith('notleader')) throw new RaftNodeError('NotLeader', 'not me');
      if (command.startsWith('boom')) throw new Error('handler exploded');
      if (command.startsWith('slow')) await released;
      return enc(command.toUpperCase());
    },
  };
  return h;
}

const followerHandlers: TransportHandlers = {
  onMessages: () => {}, onSnapshot: () => false, onUnreachable: () => {}, onSnapshotStatus: () => {},
  onForward: () => Promise.reject(new RaftNodeError('NotLeader', 'a follower')),
};

async function twoTransports(t: { after(fn: () => Promise<unknown>): void }, knowsSender = true) {
  const dir = await mkdtemp(join(tmpdir(), 'orch-forward-batch-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const pki = await ensureClusterPki(join(dir, 'pki'), ['a', 'b']);
  const tls = (n: 'a' | 'b') => ({ ca: pki.ca.cert, cert: pki.replicas[n]!.cert, key: pki.replicas[n]!.key });
  const hb = leaderHandlers();
  t.after(async () => hb.release());
  const b = await Transport.start({ id: 'b', listen: '127.0.0.1:0', peers: {}, tls: tls('b'), snapshotDir: join(dir, 'b'), handlers: hb });
  t.after(() => b.stop());
  const a = await Transport.start({ id: 'a', listen: '127.0.0.1:0', peers: { b: `127.0.0.1:${b.port}` }, tls: tls('a'), snapshotDir: join(dir, 'a'), handlers: followerHandlers });
  t.after(() => a.stop());
  if (knowsSender) b.setPeer('a', `127.0.0.1:${a.port}`);
  return { a, b, hb };
}

test('commands forwarded in one turn travel in one ForwardBatch call, reach the handler in one turn and are answered each on its own', async (t) => {
  const { a, hb } = await twoTransports(t);
  const commands = ['one', 'notleader-1', 'two', 'boom-1', 'three'];
  const outcomes = await Promise.allSettled(commands.map((c) => a.forward('b', enc(c), 5000)));
  assert.deepEqual(a.forwardStats(), { batches: 1, commands: 5 });
  assert.deepEqual(hb.arrivals.map((x) => x.command), commands);
  assert.equal(new Set(hb.arrivals.map((x) => x.turn)).size, 1, 'the leader hands the whole batch over in one turn');
  const [one, notLeader, two, boom, three] = outcomes;
  assert.deepEqual([one, two, three].map((o) => (o?.status === 'fulfilled' ? text(o.value) : o?.reason)), ['ONE', 'TWO', 'THREE']);
  assert.ok(notLeader?.status === 'rejected' && isCode('NotLeader')(notLeader.reason), 'a coded error keeps its code');
  assert.ok(boom?.status === 'rejected' && isCode('Remote')(boom.reason), 'any other handler error arrives as Remote');
  assert.equal(boom.status === 'rejected' && (boom.reason as Error).message, 'handler exploded');
});

test('a slow command does not hold back the answers of the others in its call, and times out on its own deadline', async (t) => {
  const { a, hb } = await twoTransports(t);
  let slowSettled = false;
  const slow = a.forward('b', enc('slow-1'), 300).finally(() => (slowSettled = true));
  const fast = a.forward('b', enc('fast'), 5000);
  assert.equal(text(await fast), 'FAST');
  assert.equal(slowSettled, false, 'the fast answer arrived while the slow command was still running');
  await assert.rejects(slow, isCode('Timeout'));
  assert.deepEqual(a.forwardStats(), { batches: 1, commands: 2 });
  hb.release();
  assert.equal(text(await a.forward('b', enc('after'), 5000)), 'AFTER', 'the transport keeps working after a timeout');
});

test('a ForwardBatch call from a certificate that names no known peer is refused and each command fails with Unavailable', async (t) => {
  const { a, hb } = await twoTransports(t, false);
  const outcomes = await Promise.allSettled([a.forward('b', enc('x'), 5000), a.forward('b', enc('y'), 5000)]);
  for (const o of outcomes) assert.ok(o.status === 'rejected' && isCode('Unavailable')(o.reason), String(o.status === 'rejected' ? o.reason : 'fulfilled'));
  assert.equal(hb.arrivals.length, 0);
});
