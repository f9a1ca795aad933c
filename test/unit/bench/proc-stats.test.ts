import { test } from 'node:test';
import assert from 'node:assert/strict';
import { clockTicksPerSecond, processCpuMs, procMemoryBytes } from '../../../bench/proc-stats.ts';

test("a running process's RSS, peak RSS and CPU time are read from /proc", () => {
  const rss = procMemoryBytes(process.pid, 'VmRSS');
  const peak = procMemoryBytes(process.pid, 'VmHWM');
  assert.ok(rss !== null && rss > 0);
  assert.ok(peak !== null && peak >= rss);
  const ticks = clockTicksPerSecond();
  assert.ok(Number.isInteger(ticks) && ticks > 0);
  const cpu = processCpuMs(process.pid, ticks);
  assert.ok(Number.isFinite(cpu) && cpu >= 0);
});

test('a process that does not exist has no memory reading, and its CPU time throws', () => {
  // Above PID_MAX_LIMIT (4194304, the largest pid_max 64-bit Linux allows): no process can have it.
  const gone = 4_194_305;
  assert.equal(procMemoryBytes(gone, 'VmRSS'), null);
  assert.throws(() => processCpuMs(gone, 100));
});
