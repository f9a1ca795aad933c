// The waiters of waitForRevision: woken when their revision is applied, however it is reached,
// failed when their time is up, and all ended at once on close.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RevisionWaiters, type WaitOutcome } from '../../../internal/storage/revision-waiters.ts';

/** A waiter whose outcome the test reads. */
function recorder(): WaitOutcome & { state: string } {
  const r = {
    state: 'waiting',
    resolve: () => {
      r.state = r.state === 'waiting' ? 'reached' : `${r.state}, then reached`;
    },
    reject: (error: Error) => {
      r.state = r.state === 'waiting' ? `failed: ${error.message}` : `${r.state}, then failed`;
    },
  };
  return r;
}

const timeout = (): Error => new Error('too large');

describe('revision waiters', () => {
  it('wakes the waiters an apply reached, whatever order they came in, and only those', () => {
    const waiters = new RevisionWaiters(10);
    const at = [13, 11, 12, 11, 20].map((rev) => {
      const r = recorder();
      waiters.add(rev, 60_000, r, timeout);
      return r;
    });
    waiters.wake(12);
    assert.deepEqual(at.map((r) => r.state), ['waiting', 'reached', 'reached', 'reached', 'waiting']);
    assert.equal(waiters.size, 2);
    waiters.wake(20);
    assert.deepEqual(at.map((r) => r.state), ['reached', 'reached', 'reached', 'reached', 'reached']);
    assert.equal(waiters.size, 0);
  });

  it('a jump far ahead (a restored snapshot) wakes every waiter it passes', () => {
    const waiters = new RevisionWaiters(0);
    const near = recorder();
    const far = recorder();
    const beyond = recorder();
    waiters.add(5, 60_000, near, timeout);
    waiters.add(900_000, 60_000, far, timeout);
    waiters.add(2_000_000, 60_000, beyond, timeout);
    waiters.wake(1_000_000);
    assert.deepEqual([near.state, far.state, beyond.state], ['reached', 'reached', 'waiting']);
    waiters.rejectAll(new Error('closed'));
  });

  it('a waiter whose time is up fails once and is no longer counted; the others still wake', async () => {
    const waiters = new RevisionWaiters(0);
    const late = recorder();
    const patient = recorder();
    waiters.add(3, 10, late, timeout);
    waiters.add(3, 60_000, patient, timeout);
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(late.state, 'failed: too large');
    assert.equal(waiters.size, 1);
    waiters.wake(3);
    assert.deepEqual([late.state, patient.state], ['failed: too large', 'reached']);
  });

  it('rejectAll fails every waiter once; their timers never fire', async () => {
    const waiters = new RevisionWaiters(0);
    const all = [1, 2, 2].map((rev) => {
      const r = recorder();
      waiters.add(rev, 20, r, timeout);
      return r;
    });
    waiters.rejectAll(new Error('closed'));
    await new Promise((resolve) => setTimeout(resolve, 60));
    assert.deepEqual(all.map((r) => r.state), ['failed: closed', 'failed: closed', 'failed: closed']);
    assert.equal(waiters.size, 0);
  });

  it('a revision already reached cannot be waited for', () => {
    const waiters = new RevisionWaiters(7);
    assert.throws(() => waiters.add(7, 1000, recorder(), timeout), /already reached 7/);
  });
});
