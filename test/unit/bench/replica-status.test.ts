import { test } from 'node:test';
import assert from 'node:assert/strict';
import { awaitApplied } from '../../../bench/replica-status.ts';
import type { OrchClient } from '../../../bench/orch-client.ts';

/** A client whose /orch/v1/status fails once (a closed pooled connection), then reports the given applied indexes in turn. */
function statusClient(applied: readonly number[]): Pick<OrchClient, 'call'> {
  let calls = 0;
  return {
    call: async () => {
      calls++;
      if (calls === 1) throw new Error('socket closed');
      const appliedIndex = applied[Math.min(calls - 2, applied.length - 1)] ?? 0;
      return { name: 'orch-2', role: 'follower', commitIndex: 10, appliedIndex, snapshotIndex: 0, firstIndex: 1 };
    },
  };
}

test('awaiting an applied index asks again after a failed answer and gives the status that reached it', async () => {
  const status = await awaitApplied(statusClient([3, 7, 10]), 10, performance.now() + 5_000, 'orch-2 caught up');
  assert.equal(status.appliedIndex, 10);
});

test('awaiting an applied index past the deadline names the wait and its last error', async () => {
  await assert.rejects(
    awaitApplied(statusClient([3]), 10, performance.now(), 'orch-2 caught up', () => { throw new Error('the member exited'); }),
    /^Error: orch-2 caught up: not reached within the phase's time budget \(the member exited\)$/,
  );
});
