import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { childPidsOf } from '../../../bench/cleanup.ts';
import { fdatasyncInStep, measureFdatasyncInStep, measureLoopbackRoundTrip } from '../../../bench/machine-limits.ts';

test('the loopback round trip is measured against another process, which is gone afterwards', async () => {
  const before = childPidsOf();
  let mostChildren = before.length;
  const watcher = setInterval(() => (mostChildren = Math.max(mostChildren, childPidsOf().length)), 5);
  const p50Ms = await measureLoopbackRoundTrip(2_000).finally(() => clearInterval(watcher));
  assert.equal(mostChildren, before.length + 1, 'the echo side runs in a child process');
  assert.ok(Number.isFinite(p50Ms) && p50Ms > 0, `p50 ${p50Ms}`);
  // The echo process is killed by pid; give the kernel a moment to reap it.
  for (let i = 0; i < 50 && childPidsOf().length > before.length; i++) await new Promise((r) => setTimeout(r, 20));
  assert.deepEqual(childPidsOf(), before);
});

test('fdatasync in step gives a p50 even for a run shorter than its threads take to start, and leaves no file behind', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'orch-fsync-in-step-'));
  try {
    const p50Ms = await measureFdatasyncInStep(dir, 3, 20);
    assert.ok(Number.isFinite(p50Ms) && p50Ms > 0, `p50 ${p50Ms}`);
    assert.deepEqual(readdirSync(dir), []);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('fdatasync in step fails with the reason when one file cannot be opened, and the other appenders stop', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'orch-fsync-in-step-'));
  try {
    const paths = [join(dir, 'a'), join(dir, 'missing', 'b'), join(dir, 'c')];
    await assert.rejects(fdatasyncInStep(paths, 60_000), /fdatasync in step: ENOENT/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
