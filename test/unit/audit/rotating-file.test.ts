// lumberjack's rotation as kube-apiserver's audit log uses it: a write that would pass maxSize
// renames the file to <name>-<UTC time>.<ext> first; backups are pruned by count and by age.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { RotatingFile } from '../../../internal/audit/rotating-file.ts';

function withDir(run: (dir: string) => void): void {
  const dir = mkdtempSync(join(tmpdir(), 'orch-audit-rotate-'));
  try {
    run(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('the file is made 0600 at start; a write past maxSize rotates to a timestamped backup', () => withDir((dir) => {
  const path = join(dir, 'audit.log');
  let now = Date.parse('2026-01-02T03:04:05.678Z');
  const file = new RotatingFile({ path, maxSizeBytes: 10, maxBackups: 0, maxAgeDays: 0, nowMs: () => now });
  assert.equal(statSync(path).mode & 0o777, 0o600);
  file.write('12345\n');
  file.write('123\n');
  assert.deepEqual(readdirSync(dir), ['audit.log']);
  file.write('abc\n');
  assert.deepEqual(readdirSync(dir).sort(), ['audit-2026-01-02T03-04-05.678.log', 'audit.log']);
  assert.equal(readFileSync(join(dir, 'audit-2026-01-02T03-04-05.678.log'), 'utf8'), '12345\n123\n');
  assert.equal(readFileSync(path, 'utf8'), 'abc\n');
  assert.equal(statSync(path).mode & 0o777, 0o600);
  assert.throws(() => file.write('0123456789abc'), /write length 13 exceeds maximum file size 10/);
  now += 1000;
  file.close();
}));

test('an existing file is appended to, or rotated first when the write would reach maxSize', () => withDir((dir) => {
  const path = join(dir, 'audit.log');
  writeFileSync(path, '123456');
  const file = new RotatingFile({ path, maxSizeBytes: 10, maxBackups: 0, maxAgeDays: 0, nowMs: () => Date.parse('2026-01-02T00:00:00Z') });
  file.write('abcd');
  assert.equal(readdirSync(dir).length, 2);
  assert.equal(readFileSync(path, 'utf8'), 'abcd');
  file.close();
}));

test('backups beyond maxBackups go, oldest first; backups older than maxAge days go', () => withDir((dir) => {
  const path = join(dir, 'audit.log');
  for (const stamp of ['2026-01-01T00-00-00.000', '2026-01-05T00-00-00.000', '2026-01-09T00-00-00.000']) writeFileSync(join(dir, `audit-${stamp}.log`), 'old\n');
  writeFileSync(join(dir, 'other-2026-01-01T00-00-00.000.log'), 'not ours\n');
  let now = Date.parse('2026-01-10T00:00:00Z');
  const file = new RotatingFile({ path, maxSizeBytes: 8, maxBackups: 2, maxAgeDays: 3, nowMs: () => now });
  file.write('aaa\n');
  // The first open prunes: keep the 2 newest, then those younger than 3 days.
  assert.deepEqual(readdirSync(dir).sort(), ['audit-2026-01-09T00-00-00.000.log', 'audit.log', 'other-2026-01-01T00-00-00.000.log']);
  file.write('bbb\n');
  now = Date.parse('2026-01-10T00:00:01Z');
  file.write('ccc\n');
  assert.equal(readFileSync(join(dir, 'audit-2026-01-10T00-00-01.000.log'), 'utf8'), 'aaa\nbbb\n');
  file.write('ddd\n');
  now = Date.parse('2026-01-10T00:00:03Z');
  file.write('eee\n');
  assert.deepEqual(readdirSync(dir).sort(), ['audit-2026-01-10T00-00-01.000.log', 'audit-2026-01-10T00-00-03.000.log', 'audit.log', 'other-2026-01-01T00-00-00.000.log']);
  file.close();
}));
