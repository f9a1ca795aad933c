import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ownChildPids as childPids } from '../../../bench/cleanup.ts';
import { measureLoopbackRoundTrip } from '../../../bench/machine-limits.ts';

test('the loopback round trip is measured against another process, which is gone afterwards', async () => {
  const before = childPids();
  let mostChildren = before.length;
  const watcher = setInterval(() => (mostChildren = Math.max(mostChildren, childPids().length)), 5);
  const p50Ms = await measureLoopbackRoundTrip(2_000).finally(() => clearInterval(watcher));
  assert.equal(mostChildren, before.length + 1, 'the echo side runs in a child process');
  assert.ok(Number.isFinite(p50Ms) && p50Ms > 0, `p50 ${p50Ms}`);
  // The echo process is killed by pid; give the kernel a moment to reap it.
  for (let i = 0; i < 50 && childPids().length > before.length; i++) await new Promise((r) => setTimeout(r, 20));
  assert.deepEqual(childPids(), before);
});
