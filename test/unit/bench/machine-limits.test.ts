import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { measureLoopbackRoundTrip } from '../../../bench/machine-limits.ts';

/** Pids of this process's live children (from /proc). */
function childPids(): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[1]) === process.pid && fields[0] !== 'Z') pids.push(Number(entry));
    } catch {
      // exited while we looked
    }
  }
  return pids;
}

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
