// The orch snapshot file: header from the copy itself, stream and atomic file, and the refusals
// of a file whose magic, format, size or checksum is wrong.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, it } from 'node:test';
import { SqliteStateMachine } from '../../../internal/storage/sqlite-state-machine.ts';
import {
  encodeSnapshotHeader, extractSnapshotDatabase, snapshotFileBytes, readSnapshotHeader, snapshotHeaderFor, SnapshotFileError, snapshotFileFormatVersion,
  verifySnapshotFile, writeSnapshotFile, writeSnapshotTo, type SnapshotFileErrorCode, type SnapshotHeader,
} from '../../../internal/storage/snapshot-file.ts';
import { creates } from '../../support/state-entries.ts';

interface Fixture {
  readonly dir: string;
  readonly copy: string;
  readonly file: string;
  readonly header: SnapshotHeader;
}

/** A store of 5 objects, its consistent copy, and the snapshot file of the copy. */
async function fixture(t: { after: (fn: () => void) => void }): Promise<Fixture> {
  const dir = mkdtempSync(join(tmpdir(), 'orch-snapshot-file-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const machine = SqliteStateMachine.open(join(dir, 'state.db'));
  machine.applyEntries(creates(1, 5));
  const copy = join(dir, 'copy.db');
  await machine.snapshotTo(copy);
  machine.applyEntries(creates(6, 1)); // after the copy: not in it
  machine.close();
  const header = await snapshotHeaderFor(copy, { raftTerm: 2, clusterId: 'c0ffee', replica: 'orch-1', createdAt: new Date('2026-11-27T20:00:00.123Z') });
  const file = join(dir, 'orch.snapshot');
  await writeSnapshotFile(file, header, copy);
  return { dir, copy, file, header };
}

async function refusal(file: string): Promise<SnapshotFileError> {
  try {
    await verifySnapshotFile(file);
  } catch (error) {
    assert.ok(error instanceof SnapshotFileError, String(error));
    assert.ok(!error.message.includes('\n'), 'one line');
    assert.ok(error.message.startsWith(`${file}: `), 'names the file');
    return error;
  }
  throw new Error('verifySnapshotFile accepted the file');
}

async function refusedWith(file: string, code: SnapshotFileErrorCode, message: RegExp): Promise<void> {
  const error = await refusal(file);
  assert.equal(error.code, code);
  assert.match(error.message, message);
}

/** Rewrites the header of `f.file` with `change` applied, keeping the data. */
function rewriteHeader(f: Fixture, change: Record<string, unknown>): void {
  writeFileSync(f.file, Buffer.concat([encodeSnapshotHeader({ ...f.header, ...change } as SnapshotHeader), readFileSync(f.copy)]));
}

describe('snapshot file', () => {
  it('has a header read from the copy itself: its revision and index, size and sha256 of its bytes', async (t) => {
    const f = await fixture(t);
    assert.equal(f.header.format, snapshotFileFormatVersion);
    assert.equal(f.header.revision, 5);
    assert.equal(f.header.raftIndex, 5);
    assert.equal(f.header.stateFormat, 1);
    assert.equal(f.header.createdAt, '2026-11-27T20:00:00Z');
    assert.equal(f.header.size, readFileSync(f.copy).length);
    const text = readFileSync(f.file);
    assert.ok(text.subarray(0, 15).toString() === 'ORCH-SNAPSHOT {');
    assert.deepEqual((await verifySnapshotFile(f.file)).header, f.header);
    assert.deepEqual(readdirSync(f.dir).filter((n) => n.endsWith('.tmp')), [], 'no temporary file left');
  });

  it('streams the same bytes as the file to a writable', async (t) => {
    const f = await fixture(t);
    const out = new PassThrough();
    const chunks: Buffer[] = [];
    out.on('data', (chunk: Buffer) => chunks.push(chunk));
    await writeSnapshotTo(out, f.header, f.copy);
    assert.deepEqual(Buffer.concat(chunks), readFileSync(f.file));
    assert.equal(snapshotFileBytes(f.header), readFileSync(f.file).length);
  });

  it('extracts the database byte for byte', async (t) => {
    const f = await fixture(t);
    const out = join(f.dir, 'extracted.db');
    assert.deepEqual(await extractSnapshotDatabase(f.file, out), f.header);
    assert.deepEqual(readFileSync(out), readFileSync(f.copy));
    const machine = SqliteStateMachine.open(out);
    t.after(() => machine.close());
    assert.equal(machine.currentRevision(), 5);
  });

  it('refuses a tampered byte as a checksum mismatch, and extracts nothing', async (t) => {
    const f = await fixture(t);
    const bytes = readFileSync(f.file);
    const at = bytes.length - 100;
    bytes[at] = (bytes[at] ?? 0) ^ 0xff;
    writeFileSync(f.file, bytes);
    await refusedWith(f.file, 'ChecksumMismatch', /is corrupt: its database's sha256 is [0-9a-f]{64}, its header says/);
    const out = join(f.dir, 'extracted.db');
    await assert.rejects(extractSnapshotDatabase(f.file, out), (e: unknown) => e instanceof SnapshotFileError && e.code === 'ChecksumMismatch');
    assert.deepEqual(readdirSync(f.dir).filter((n) => n.includes('extracted')), []);
  });

  it('refuses a truncated file, in its data or in its header', async (t) => {
    const f = await fixture(t);
    const bytes = readFileSync(f.file);
    writeFileSync(f.file, bytes.subarray(0, bytes.length - 10));
    await refusedWith(f.file, 'Truncated', /is truncated: \d+ bytes of database, its header says \d+/);
    writeFileSync(f.file, bytes.subarray(0, 40));
    await refusedWith(f.file, 'Truncated', /ends inside its header/);
  });

  it('refuses bytes after the database', async (t) => {
    const f = await fixture(t);
    writeFileSync(f.file, Buffer.concat([readFileSync(f.file), Buffer.from('x')]));
    await refusedWith(f.file, 'TrailingBytes', /has 1 bytes after its database/);
  });

  it('refuses a file without the magic (a bare SQLite database)', async (t) => {
    const f = await fixture(t);
    await refusedWith(f.copy, 'BadMagic', /not an orch snapshot file \(it does not start with "ORCH-SNAPSHOT"\)/);
    writeFileSync(f.file, '');
    await refusedWith(f.file, 'BadMagic', /not an orch snapshot file/);
  });

  it('refuses a file of a newer format, or holding a store of a newer format', async (t) => {
    const f = await fixture(t);
    rewriteHeader(f, { format: 2 });
    await refusedWith(f.file, 'NewerFormat', /the snapshot file is in format 2; this orch reads format 1: restore it with an orch release that reads it/);
    rewriteHeader(f, { stateFormat: 9 });
    await refusedWith(f.file, 'NewerFormat', /the store in this snapshot is in format 9; this orch reads format 1/);
  });

  it('refuses a header that is not JSON or lacks a field', async (t) => {
    const f = await fixture(t);
    writeFileSync(f.file, 'ORCH-SNAPSHOT {nope\n');
    await refusedWith(f.file, 'BadHeader', /the snapshot header is not JSON/);
    rewriteHeader(f, { sha256: undefined });
    await refusedWith(f.file, 'BadHeader', /"sha256" is missing/);
    const layout = await readSnapshotHeader(f.copy).catch((e: unknown) => e);
    assert.ok(layout instanceof SnapshotFileError);
  });
});
