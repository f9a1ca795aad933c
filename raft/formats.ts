/**
 * On-disk format versions and the one refusal every reader of a versioned file makes. A database
 * carries its version in SQLite's `PRAGMA user_version`; a database written before versions
 * existed (tables present, version 0) reads as version 1 and is stamped so.
 */
import type Database from 'better-sqlite3';

/** The format of the Raft log database (`<dataDir>/raft/raft.db`) this code writes and reads. */
export const logFormatVersion = 1;

/** A file or database of a format this code cannot read (too new, or not a version at all). */
export class FormatVersionError extends Error {
  constructor(
    readonly path: string,
    readonly found: number,
    readonly readable: readonly number[],
    message: string,
  ) {
    super(message);
    this.name = 'FormatVersionError';
  }
}

/** What refuseUnreadableFormat says about the thing it refuses. */
export interface FormatCheck {
  /** The file, in the message. */
  readonly path: string;
  /** What the file is, in the message: 'the Raft log', 'the store'. */
  readonly what: string;
  readonly found: number;
  /** The newest version this code reads; it reads every version from 1 to it. */
  readonly newest: number;
  /** What the operator can do, in the message. */
  readonly remedy: string;
}

/** The remedy for a replica's own database of a newer format. */
export const replicaRemedy = 'run an orch release that reads it, or restore this replica from a snapshot (orchctl snapshot restore)';

/** Throws a one-line FormatVersionError when `found` is not a version in 1..newest. */
export function refuseUnreadableFormat(c: FormatCheck): void {
  if (Number.isSafeInteger(c.found) && c.found >= 1 && c.found <= c.newest) return;
  const readable = Array.from({ length: c.newest }, (_, i) => i + 1);
  const reads = c.newest === 1 ? 'format 1' : `formats 1 to ${c.newest}`;
  throw new FormatVersionError(c.path, c.found, readable, `${c.path}: ${c.what} is in format ${String(c.found)}; this orch reads ${reads}: ${c.remedy}`);
}

/**
 * Reads the format of an open SQLite database: its user_version, or 1 for a database that has
 * tables but no version (written before versions existed), or null for a new, empty one.
 */
export function sqliteFormatOf(db: Database.Database): number | null {
  const version = db.pragma('user_version', { simple: true }) as number;
  if (version !== 0) return version;
  const tables = db.prepare("SELECT count(*) FROM sqlite_master WHERE type = 'table'").pluck().get() as number;
  return tables > 0 ? 1 : null;
}

/**
 * Checks an open database's format against `newest` (refusing one it cannot read, before any
 * write to it) and stamps a legacy or new database with `newest`. Returns the version found
 * (null for a new database).
 */
export function checkAndStampFormat(db: Database.Database, c: Omit<FormatCheck, 'found'>): number | null {
  const found = sqliteFormatOf(db);
  if (found !== null) refuseUnreadableFormat({ ...c, found });
  const stamp = found ?? c.newest;
  if ((db.pragma('user_version', { simple: true }) as number) !== stamp) db.pragma(`user_version = ${stamp}`);
  return found;
}
