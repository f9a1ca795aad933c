import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { RaftTimings } from '../../../raft/node.ts';
import { startWithLeader } from './toy-cluster.ts';

/** Every observation a node made, in seconds. */
class RecordedTimings implements RaftTimings {
  readonly syncs: number[] = [];
  readonly commits: number[] = [];
  readonly applies: number[] = [];
  logSynced(seconds: number): void {
    this.syncs.push(seconds);
  }
  committed(seconds: number): void {
    this.commits.push(seconds);
  }
  applied(seconds: number): void {
    this.applies.push(seconds);
  }
}

test("a leader times its own proposals to commit; every node times its log's fsyncs and its applies", async (t) => {
  const recorded = new Map<string, RecordedTimings>();
  const { cluster, leader } = await startWithLeader(t, {
    timings: (id) => {
      const r = new RecordedTimings();
      recorded.set(id, r);
      return r;
    },
  });
  const node = leader.node!;
  const mine = recorded.get(leader.id)!;
  const proposals = 5;
  let last = 0;
  for (let i = 0; i < proposals; i++) {
    const before = mine.commits.length;
    const started = performance.now();
    last = await node.propose(new TextEncoder().encode(`v${i}`));
    const elapsedSeconds = (performance.now() - started) / 1000;
    assert.equal(mine.commits.length, before + 1, 'one commit timed per proposal');
    // In seconds, and within the proposal's own wait (its apply came after its commit).
    assert.ok(mine.commits[before]! <= elapsedSeconds, `commit ${mine.commits[before]} s within ${elapsedSeconds} s`);
  }
  await cluster.allApplied(last);
  for (const [id, r] of recorded) {
    const all = [...r.syncs, ...r.commits, ...r.applies];
    assert.ok(all.every((s) => s >= 0 && s < 60), `${id}: every duration is in seconds, not negative`);
    assert.ok(r.syncs.length > 0 && r.applies.length > 0, `${id} timed fsyncs and applies`);
    if (id !== leader.id) assert.equal(r.commits.length, 0, `${id} proposed nothing, so timed no commit`);
  }
});
