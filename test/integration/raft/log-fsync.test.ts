// The log's fsync runs off the event loop (SqliteLogStorage.sync): these pin down that nothing a
// Ready carries counts before its fsync ends, by holding chosen nodes' fsyncs as a slow disk would.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sep } from 'node:path';
import { RaftNodeError } from '../../../raft/errors.ts';
import { SqliteLogStorage } from '../../../raft/sqlite-log-storage.ts';
import { startWithLeader, until } from './toy-cluster.ts';
import type { Member } from './toy-cluster.ts';

const text = (s: string): Uint8Array => new TextEncoder().encode(s);

/**
 * The real fsyncs of the nodes in `dataDirs` still run; their completion is reported only at
 * `release()`. `restore()` releases too: a node stopping waits for its fsync.
 */
function holdLogSyncs(dataDirs: readonly string[]): { release(): void; restore(): void; held(): number } {
  const original = SqliteLogStorage.prototype.sync;
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let held = 0;
  SqliteLogStorage.prototype.sync = function (this: SqliteLogStorage): Promise<void> {
    const synced = original.call(this);
    // The storage knows its directory only through its WAL path (a private field, read for the test).
    const walPath = (this as unknown as { walPath: string }).walPath;
    if (!dataDirs.some((dir) => walPath.startsWith(dir + sep))) return synced;
    held++;
    return synced.then(() => gate);
  };
  const restore = (): void => {
    release();
    SqliteLogStorage.prototype.sync = original;
  };
  return { release, restore, held: () => held };
}

/** Proposes on the leader and tracks whether the proposal has settled. */
function propose(leader: Member, data: string): { settled(): boolean; done: Promise<number> } {
  let settled = false;
  const done = leader.node!.propose(text(data)).finally(() => (settled = true));
  return { settled: () => settled, done };
}

/**
 * How long a held fsync is watched: far longer than a commit takes (ms), shorter than an election
 * timeout (10 ticks of 20 ms), so that a leader whose followers' answers are held by the test does
 * not step down for want of a quorum (check-quorum) and start another election meanwhile.
 */
const pauseMs = 120;

/** Runs `check` with the fsyncs of the nodes in `dataDirs` held, and always lets them go afterwards (a stopping node waits for its fsync). */
async function withLogSyncsHeld(dataDirs: readonly string[], check: (hold: { release(): void; held(): number }) => Promise<void>): Promise<void> {
  const hold = holdLogSyncs(dataDirs);
  try {
    await check(hold);
  } finally {
    hold.restore();
  }
}

/**
 * Proposes on the leader while some fsyncs are held: once `written(before)` holds (the entry is
 * where it should be) it must still not commit for `pauseMs`, and must commit once they are let go.
 */
async function expectCommitOnlyAfterRelease(leader: Member, hold: { release(): void }, written: (before: number) => boolean, what: string, why: string): Promise<void> {
  const before = leader.node!.status().lastIndex;
  const write = propose(leader, 'held');
  await until(() => written(before), what);
  await new Promise((resolve) => setTimeout(resolve, pauseMs));
  assert.equal(write.settled(), false, why);
  hold.release();
  assert.ok((await write.done) > before);
}

test('followers acknowledge entries only after their fsync: nothing commits while both fsyncs are held', async (t) => {
  const { cluster, leader, followers } = await startWithLeader(t);
  await withLogSyncsHeld(followers.map((f) => cluster.dataDir(f.id)), async (hold) => {
    // Both followers wrote the entry; its fsync has not been reported yet.
    const writtenOnBoth = (before: number): boolean => followers.every((f) => f.node!.status().lastIndex > before);
    await expectCommitOnlyAfterRelease(leader, hold, writtenOnBoth, 'the entry written on both followers', 'committed before a follower had the entry on disk');
    assert.ok(hold.held() >= 2);
  });
});

/**
 * Waits until the leader streams entries to `follower` and it holds all of them. Until then the
 * leader sends it one probe at a time, and the next append would leave only in a Ready taken after
 * the probe's answer: never, while the leader's own fsync holds its Ready.
 */
async function streamingTo(leader: Member, follower: Member): Promise<void> {
  await until(() => {
    const status = leader.node!.status();
    const progress = status.progress[follower.id];
    return progress?.state === 'replicate' && progress.match === status.lastIndex;
  }, `the leader streaming to ${follower.id}`);
}

test('the leader counts its own copy only after its fsync: with one follower acknowledging, nothing commits', async (t) => {
  const { cluster, leader, followers: [slow, fast] } = await startWithLeader(t);
  await streamingTo(leader, fast);
  await withLogSyncsHeld([cluster.dataDir(leader.id), cluster.dataDir(slow.id)], async (hold) => {
    const onFast = (before: number): boolean => fast.node!.status().lastIndex > before;
    await expectCommitOnlyAfterRelease(leader, hold, onFast, 'the entry on the follower whose fsync is not held', 'committed on the leader before its own fsync ended');
  });
});

test('a node grants its vote only once the vote is on disk: a transferee gets no votes while the others\' fsyncs are held', async (t) => {
  const { cluster, leader, followers: [transferee, other] } = await startWithLeader(t);
  await withLogSyncsHeld([cluster.dataDir(leader.id), cluster.dataDir(other.id)], async (hold) => {
    // Any win counts, even one lost again within the pause.
    let won = false;
    transferee.node!.on('leader-change', (lead: string | null) => (won ||= lead === transferee.id));
    const moved = leader.node!.transferLeadership(transferee.id, 10_000).catch(() => undefined);
    await until(() => hold.held() >= 2, 'both voters writing their vote');
    await new Promise((resolve) => setTimeout(resolve, pauseMs));
    assert.equal(won, false, 'won on votes that were not on disk');
    hold.release();
    await until(() => transferee.node!.isLeader(), 'the transferee leading once the votes are durable');
    await moved;
  });
});

test('a node stopped while its fsync runs waits for it, closes its log, and fails what was pending with Stopped', async (t) => {
  const { cluster, leader } = await startWithLeader(t);
  await withLogSyncsHeld([cluster.dataDir(leader.id)], async (hold) => {
    const write = propose(leader, 'pending');
    const failed = assert.rejects(write.done, (err: unknown) => err instanceof RaftNodeError && err.code === 'Stopped');
    await until(() => hold.held() > 0, 'the leader fsyncing');
    let stopped = false;
    const stopping = leader.node!.stop().then(() => (stopped = true));
    await new Promise((resolve) => setTimeout(resolve, pauseMs));
    assert.equal(stopped, false, 'closed the log under a running fsync');
    hold.release();
    await stopping;
    await failed;
  });
});
