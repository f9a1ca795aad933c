// lumberjack's rotation as kube-apiserver's audit log uses it: a write that would pass maxSize
// renames the file to <name>-<UTC time>.<ext> first; backups are pruned by count and by age.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { RotatingFile } from '../../../internal/audit/rotating-file.ts';

function withDir(run: (dir: string) => void | Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'orch-audit-rotate-'));
  return Promise.resolve()
    .then(() => run(dir))
    .finally(() => rmSync(dir, { recursive: true, force: true }));
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

test('--audit-log-compress: rotated backups become <name>-<time>.<ext>.gz (same mode), and pruning counts them', () => withDir(async (dir) => {
  const path = join(dir, 'audit.log');
  let now = Date.parse('2026-01-10T00:00:00Z');
  writeFileSync(join(dir, 'audit-2026-01-01T00-00-00.000.log.gz'), 'old gz');
  const file = new RotatingFile({ path, maxSizeBytes: 8, maxBackups: 2, maxAgeDays: 0, compress: true, nowMs: () => now });
  file.write('aaa\n');
  file.write('bbb\n');
  now += 1000;
  file.write('ccc\n');
  await file.idle();
  assert.deepEqual(readdirSync(dir).sort(), ['audit-2026-01-01T00-00-00.000.log.gz', 'audit-2026-01-10T00-00-01.000.log.gz', 'audit.log']);
  assert.equal(gunzipSync(readFileSync(join(dir, 'audit-2026-01-10T00-00-01.000.log.gz'))).toString('utf8'), 'aaa\nbbb\n');
  assert.equal(statSync(join(dir, 'audit-2026-01-10T00-00-01.000.log.gz')).mode & 0o777, 0o600);
  file.write('ddd\n');
  now += 1000;
  file.write('eee\n');
  await file.idle();
  // maxBackups 2: the oldest (compressed) backup goes.
  assert.deepEqual(readdirSync(dir).sort(), ['audit-2026-01-10T00-00-01.000.log.gz', 'audit-2026-01-10T00-00-02.000.log.gz', 'audit.log']);
  file.close();
}));

test('a failed write (ENOSPC after half a line) is cut back off: the file keeps whole lines only', () => withDir((dir) => {
  const path = join(dir, 'audit.log');
  let failNext = false;
  const file = new RotatingFile({
    path, maxSizeBytes: 0, maxBackups: 0, maxAgeDays: 0,
    writeSync: (fd, buffer, offset) => {
      if (!failNext) return writeSync(fd, buffer, offset);
      if (offset === 0) return writeSync(fd, buffer, 0, Math.ceil(buffer.length / 2));
      throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    },
  });
  file.write('first\n');
  failNext = true;
  assert.throws(() => file.write('a line that does not fit\n'), /ENOSPC/);
  assert.equal(readFileSync(path, 'utf8'), 'first\n');
  failNext = false;
  file.write('third\n');
  assert.equal(readFileSync(path, 'utf8'), 'first\nthird\n');
  file.close();
}));

test('the log\'s directory is made 0700; a path under /proc fails at once with one line (no endless mkdir)', () => withDir((dir) => {
  const path = join(dir, 'a', 'b', 'audit.log');
  new RotatingFile({ path, maxSizeBytes: 0, maxBackups: 0, maxAgeDays: 0 }).close();
  assert.equal(statSync(join(dir, 'a')).mode & 0o777, 0o700);
  assert.equal(statSync(join(dir, 'a', 'b')).mode & 0o777, 0o700);
  assert.throws(() => new RotatingFile({ path: '/proc/nope/x.log', maxSizeBytes: 0, maxBackups: 0, maxAgeDays: 0 }), (err: unknown) => err instanceof Error && /^cannot create directory \/proc\/nope: /.test(err.message) && !err.message.includes('\n'));
  writeFileSync(join(dir, 'file'), '');
  assert.throws(() => new RotatingFile({ path: join(dir, 'file', 'x.log'), maxSizeBytes: 0, maxBackups: 0, maxAgeDays: 0 }), /is not a directory/);
}));
