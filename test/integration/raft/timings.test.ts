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
  const before = recorded.get(leader.id)!.commits.length;
  const proposals = 5;
  let last = 0;
  for (let i = 0; i < proposals; i++) last = await node.propose(new TextEncoder().encode(`v${i}`));
  await cluster.allApplied(last);
  const mine = recorded.get(leader.id)!;
  assert.equal(mine.commits.length - before, proposals);
  for (const [id, r] of recorded) {
    const all = [...r.syncs, ...r.commits, ...r.applies];
    assert.ok(all.every((s) => s > 0 && s < 60), `${id}: every duration is in seconds and positive`);
    assert.ok(r.syncs.length > 0 && r.applies.length > 0, `${id} timed fsyncs and applies`);
    if (id !== leader.id) assert.equal(r.commits.length, 0, `${id} proposed nothing, so timed no commit`);
  }
});
