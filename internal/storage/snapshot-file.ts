// The orch snapshot file (docs/operations.md): the magic `ORCH-SNAPSHOT `, one line of JSON
// describing the store, then the store's SQLite database byte for byte. What `GET
// /orch/v1/snapshot` serves and `orchctl snapshot restore` reads.
import Database from 'better-sqlite3';
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open, rename, stat, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { sqliteFormatOf } from '../../raft/formats.ts';
import { stateFormatVersion } from './state-schema.ts';

/** The format of the snapshot file this code writes and reads. */
export const snapshotFileFormatVersion = 1;

/** The first bytes of every snapshot file. */
export const snapshotMagic = 'ORCH-SNAPSHOT ';

/** The header line's length at most, newline included: a longer one is not a header. */
const headerBytesMax = 64 * 1024;

/** The JSON header line of a snapshot file. */
export interface SnapshotHeader {
  readonly format: number;
  /** The store's revision counter in the database: the last revision written. */
  readonly revision: number;
  /** The Raft index the database has applied. */
  readonly raftIndex: number;
  /** The term of the entry at raftIndex (0 when unknown). */
  readonly raftTerm: number;
  readonly clusterId: string;
  /** The replica the copy was made on. */
  readonly replica: string;
  /** ISO 8601, UTC. */
  readonly createdAt: string;
  /** The format of the state database (stateFormatVersion of the writer). */
  readonly stateFormat: number;
  /** Bytes of the database after the header line. */
  readonly size: number;
  /** Lowercase hex sha256 of those bytes. */
  readonly sha256: string;
}

/** Why a snapshot file was refused. */
export type SnapshotFileErrorCode = 'BadMagic' | 'BadHeader' | 'NewerFormat' | 'Truncated' | 'TrailingBytes' | 'ChecksumMismatch' | 'Inconsistent';

/** A snapshot file this code refuses, with a one-line message naming the file. */
export class SnapshotFileError extends Error {
  constructor(
    readonly code: SnapshotFileErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'SnapshotFileError';
  }
}

/** What the state database itself says about the store it holds. */
export interface StoreDatabaseFacts {
  readonly revision: number;
  readonly appliedIndex: number;
  /** Its format (user_version; 1 for a database written before versions existed). */
  readonly stateFormat: number;
}

/** Reads revision, applied index and format from the state database at `path` (read-only). */
export function readStoreDatabaseFacts(path: string): StoreDatabaseFacts {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    const meta = db.prepare<[string], { value: number }>('SELECT value FROM meta WHERE name = ?');
    return {
      revision: meta.get('revision')?.value ?? 0,
      appliedIndex: meta.get('applied_index')?.value ?? 0,
      stateFormat: sqliteFormatOf(db) ?? stateFormatVersion,
    };
  } finally {
    db.close();
  }
}

/** What the caller knows that the database copy does not. */
export interface SnapshotOrigin {
  /** The term of the entry at the copy's applied index (0 if unknown). */
  readonly raftTerm: number;
  readonly clusterId: string;
  readonly replica: string;
  readonly createdAt?: Date;
}

/**
 * The header for the consistent copy of the state database at `dbPath` (as
 * `stateMachine.snapshotTo(path)` makes it): revision and index read from the copy itself, size
 * and sha256 computed from its bytes. The copy must not change afterwards.
 */
export async function snapshotHeaderFor(dbPath: string, origin: SnapshotOrigin): Promise<SnapshotHeader> {
  const facts = readStoreDatabaseFacts(dbPath);
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of createReadStream(dbPath) as AsyncIterable<Buffer>) {
    hash.update(chunk);
    size += chunk.length;
  }
  return {
    format: snapshotFileFormatVersion,
    revision: facts.revision,
    raftIndex: facts.appliedIndex,
    raftTerm: origin.raftTerm,
    clusterId: origin.clusterId,
    replica: origin.replica,
    createdAt: (origin.createdAt ?? new Date()).toISOString().replace(/\.\d{3}Z$/, 'Z'),
    stateFormat: facts.stateFormat,
    size,
    sha256: hash.digest('hex'),
  };
}

/** The header line: magic, JSON, newline. */
export function encodeSnapshotHeader(header: SnapshotHeader): Buffer {
  return Buffer.from(`${snapshotMagic}${JSON.stringify(header)}\n`, 'utf8');
}

/** The bytes of the whole snapshot file (header line and database): an HTTP Content-Length. */
export function snapshotFileBytes(header: SnapshotHeader): number {
  return encodeSnapshotHeader(header).length + header.size;
}

async function* snapshotChunks(header: SnapshotHeader, dbPath: string): AsyncGenerator<Buffer> {
  yield encodeSnapshotHeader(header);
  let size = 0;
  for await (const chunk of createReadStream(dbPath) as AsyncIterable<Buffer>) {
    size += chunk.length;
    yield chunk;
  }
  // The header promised `size` bytes: a changed copy would make a file no reader accepts.
  if (size !== header.size) throw new Error(`assert: ${dbPath} is ${size} bytes, its snapshot header says ${header.size}`);
}

/** The snapshot file as a stream: header line, then the database at `dbPath`. */
export function snapshotStream(header: SnapshotHeader, dbPath: string): Readable {
  return Readable.from(snapshotChunks(header, dbPath), { objectMode: false });
}

/** Writes the snapshot file (header, database) to `out`, resolving once all is written (and `out` ended). */
export async function writeSnapshotTo(out: Writable, header: SnapshotHeader, dbPath: string): Promise<void> {
  await pipeline(snapshotStream(header, dbPath), out);
}

/** Syncs a file or directory to disk. */
export async function fsyncPath(path: string): Promise<void> {
  const handle = await open(path, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Writes `chunks` to `filePath` atomically: into a temporary file beside it, fsynced, renamed
 * over it, the directory fsynced. On failure the temporary file is removed and `filePath` is untouched.
 */
async function writeFileAtomically(filePath: string, chunks: AsyncIterable<Buffer>): Promise<void> {
  const temporary = join(dirname(filePath), `.${basename(filePath)}.${randomBytes(4).toString('hex')}.tmp`);
  const handle = await open(temporary, 'wx');
  try {
    try {
      for await (const chunk of chunks) await handle.write(chunk);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporary, filePath);
  } catch (error) {
    await unlink(temporary).catch(() => {});
    throw error;
  }
  await fsyncPath(dirname(filePath));
}

/** Writes the snapshot file of the database at `dbPath` to `filePath`, atomically and durably. */
export async function writeSnapshotFile(filePath: string, header: SnapshotHeader, dbPath: string): Promise<void> {
  await writeFileAtomically(filePath, snapshotChunks(header, dbPath));
}

/** A snapshot file's header and where its database starts. */
export interface SnapshotFileLayout {
  readonly header: SnapshotHeader;
  /** The byte offset of the database (just after the header's newline). */
  readonly dataOffset: number;
}

const headerFields: Record<keyof SnapshotHeader, 'number' | 'string'> = {
  format: 'number', revision: 'number', raftIndex: 'number', raftTerm: 'number', clusterId: 'string', replica: 'string',
  createdAt: 'string', stateFormat: 'number', size: 'number', sha256: 'string',
};

/** Parses and checks a header's JSON; the format is checked first, so a newer file is refused as such. */
function parseHeader(filePath: string, json: string): SnapshotHeader {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    throw new SnapshotFileError('BadHeader', `${filePath}: the snapshot header is not JSON`);
  }
  if (typeof value !== 'object' || value === null) throw new SnapshotFileError('BadHeader', `${filePath}: the snapshot header is not a JSON object`);
  const fields = value as Record<string, unknown>;
  const format = fields['format'];
  if (typeof format !== 'number' || !Number.isSafeInteger(format) || format < 1) {
    throw new SnapshotFileError('BadHeader', `${filePath}: the snapshot header has no valid "format"`);
  }
  if (format > snapshotFileFormatVersion) {
    throw new SnapshotFileError('NewerFormat', `${filePath}: the snapshot file is in format ${format}; this orch reads format ${snapshotFileFormatVersion}: restore it with an orch release that reads it`);
  }
  for (const [name, type] of Object.entries(headerFields)) {
    const field = fields[name];
    const valid = type === 'number' ? typeof field === 'number' && Number.isSafeInteger(field) && field >= 0 : typeof field === 'string';
    if (!valid) throw new SnapshotFileError('BadHeader', `${filePath}: the snapshot header's "${name}" is missing or not a ${type === 'number' ? 'non-negative integer' : 'string'}`);
  }
  const header = fields as unknown as SnapshotHeader;
  if (!/^[0-9a-f]{64}$/.test(header.sha256)) throw new SnapshotFileError('BadHeader', `${filePath}: the snapshot header's "sha256" is not 64 lowercase hex digits`);
  if (header.stateFormat > stateFormatVersion) {
    throw new SnapshotFileError('NewerFormat', `${filePath}: the store in this snapshot is in format ${header.stateFormat}; this orch reads format ${stateFormatVersion}: restore it with an orch release that reads it`);
  }
  return header;
}

/** Reads and checks the magic and header line of the snapshot file at `filePath`, not its data. */
export async function readSnapshotHeader(filePath: string): Promise<SnapshotFileLayout> {
  const handle = await open(filePath, 'r');
  let head: Buffer;
  try {
    const buffer = Buffer.alloc(headerBytesMax);
    const { bytesRead } = await handle.read(buffer, 0, headerBytesMax, 0);
    head = buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
  if (head.length < snapshotMagic.length || head.subarray(0, snapshotMagic.length).toString('latin1') !== snapshotMagic) {
    throw new SnapshotFileError('BadMagic', `${filePath}: not an orch snapshot file (it does not start with "${snapshotMagic.trim()}")`);
  }
  const newline = head.indexOf(0x0a);
  if (newline < 0) {
    const why = head.length < headerBytesMax ? 'ends inside its header (truncated)' : `has no header line within ${headerBytesMax} bytes`;
    throw new SnapshotFileError(head.length < headerBytesMax ? 'Truncated' : 'BadHeader', `${filePath}: the snapshot file ${why}`);
  }
  const header = parseHeader(filePath, head.subarray(snapshotMagic.length, newline).toString('utf8'));
  return { header, dataOffset: newline + 1 };
}

/** Checks that the file holds exactly the header's `size` bytes of data. */
async function checkDataSize(filePath: string, layout: SnapshotFileLayout): Promise<void> {
  const data = (await stat(filePath)).size - layout.dataOffset;
  if (data < layout.header.size) {
    throw new SnapshotFileError('Truncated', `${filePath}: the snapshot file is truncated: ${data} bytes of database, its header says ${layout.header.size}`);
  }
  if (data > layout.header.size) {
    throw new SnapshotFileError('TrailingBytes', `${filePath}: the snapshot file has ${data - layout.header.size} bytes after its database (${layout.header.size} bytes per its header)`);
  }
}

/** The data bytes of a snapshot file, hashed into `hash` as they are read. */
async function* dataChunks(filePath: string, layout: SnapshotFileLayout, hash: ReturnType<typeof createHash>): AsyncGenerator<Buffer> {
  if (layout.header.size === 0) return;
  const stream = createReadStream(filePath, { start: layout.dataOffset, end: layout.dataOffset + layout.header.size - 1 });
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    hash.update(chunk);
    yield chunk;
  }
}

function checksumError(filePath: string, header: SnapshotHeader, actual: string): SnapshotFileError {
  return new SnapshotFileError('ChecksumMismatch', `${filePath}: the snapshot file is corrupt: its database's sha256 is ${actual}, its header says ${header.sha256}`);
}

/**
 * Reads and verifies the snapshot file at `filePath`: magic, format, header, size, sha256.
 * Throws SnapshotFileError with a one-line message for the first thing wrong.
 */
export async function verifySnapshotFile(filePath: string): Promise<SnapshotFileLayout> {
  const layout = await readSnapshotHeader(filePath);
  await checkDataSize(filePath, layout);
  const hash = createHash('sha256');
  for await (const chunk of dataChunks(filePath, layout, hash)) void chunk;
  const actual = hash.digest('hex');
  if (actual !== layout.header.sha256) throw checksumError(filePath, layout.header, actual);
  return layout;
}

/**
 * Verifies the snapshot file at `filePath` and writes its database to `destination` (atomically,
 * durably), checking the sha256 of the very bytes it writes. Returns the header.
 */
export async function extractSnapshotDatabase(filePath: string, destination: string): Promise<SnapshotHeader> {
  const layout = await readSnapshotHeader(filePath);
  await checkDataSize(filePath, layout);
  const hash = createHash('sha256');
  const header = layout.header;
  async function* checked(): AsyncGenerator<Buffer> {
    yield* dataChunks(filePath, layout, hash);
    const actual = hash.digest('hex');
    // Thrown before the rename: a corrupt file leaves nothing at `destination`.
    if (actual !== header.sha256) throw checksumError(filePath, header, actual);
  }
  await writeFileAtomically(destination, checked());
  return header;
}
