// The audit log file with lumberjack's rotation (gopkg.in/natefinch/lumberjack.v2, which
// kube-apiserver writes its audit log through): a write that would take the file past maxSize
// first renames it to `<name>-<UTC 2006-01-02T15-04-05.000><ext>` and starts an empty file of the
// same mode; then backups beyond maxBackups (newest kept) and older than maxAge days are removed
// (0: no limit). Writes are synchronous: a line is in the file when write returns.
import { closeSync, fstatSync, mkdirSync, openSync, readdirSync, renameSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';

/** How the file rotates. */
export interface RotationOptions {
  readonly path: string;
  /** Bytes before a rotation; 0 is lumberjack's default, 100 MB. */
  readonly maxSizeBytes: number;
  /** Backups kept; 0 keeps all. */
  readonly maxBackups: number;
  /** Days a backup is kept; 0 keeps them whatever their age. */
  readonly maxAgeDays: number;
  /** The clock (tests); default Date.now. */
  readonly nowMs?: () => number;
}

const megabyte = 1024 * 1024;
const defaultMaxSizeBytes = 100 * megabyte;
const dayMs = 24 * 60 * 60 * 1000;

/** `2006-01-02T15-04-05.000` of `ms` in UTC. */
function backupTimestamp(ms: number): string {
  return new Date(ms).toISOString().slice(0, 23).replace(/:/g, '-');
}

/** The time in a backup's name, or undefined when the name is not one of ours. */
function timestampOf(name: string, prefix: string, ext: string): number | undefined {
  if (!name.startsWith(prefix) || !name.endsWith(ext) || name.length <= prefix.length + ext.length) return undefined;
  const stamp = name.slice(prefix.length, name.length - ext.length);
  const match = /^(\d{4}-\d{2}-\d{2})T(\d{2})-(\d{2})-(\d{2})\.(\d{3})$/.exec(stamp);
  if (match === null) return undefined;
  const ms = Date.parse(`${match[1]}T${match[2]}:${match[3]}:${match[4]}.${match[5]}Z`);
  return Number.isNaN(ms) ? undefined : ms;
}

/** A log file that rotates as lumberjack's Logger does. Not safe for two processes at once. */
export class RotatingFile {
  private fd: number | undefined;
  private size = 0;
  private readonly maxBytes: number;
  private readonly now: () => number;

  /** Creates the file (mode 0600) when missing, as kube-apiserver does at start: a path that cannot be written throws now. */
  constructor(private readonly options: RotationOptions) {
    this.maxBytes = options.maxSizeBytes > 0 ? options.maxSizeBytes : defaultMaxSizeBytes;
    this.now = options.nowMs ?? Date.now;
    mkdirSync(dirname(options.path), { recursive: true, mode: 0o755 });
    closeSync(openSync(options.path, 'a', 0o600));
  }

  /** Appends `text` (rotating first when it would not fit). Throws the file system's error. */
  write(text: string): void {
    const bytes = Buffer.from(text, 'utf8');
    if (bytes.length > this.maxBytes) throw new Error(`write length ${bytes.length} exceeds maximum file size ${this.maxBytes}`);
    if (this.fd === undefined) this.openExistingOrNew(bytes.length);
    if (this.size + bytes.length > this.maxBytes) this.rotate();
    const fd = this.fd;
    if (fd === undefined) throw new Error('assert: the audit log is open after opening it');
    let written = 0;
    while (written < bytes.length) written += writeSync(fd, bytes, written);
    this.size += written;
  }

  /** Closes the file (a later write opens it again). */
  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }

  private openExistingOrNew(writeBytes: number): void {
    this.prune();
    let existing: number | undefined;
    try {
      existing = statSync(this.options.path).size;
    } catch {
      existing = undefined;
    }
    if (existing === undefined) return this.openNew();
    if (existing + writeBytes >= this.maxBytes) return this.rotate();
    this.fd = openSync(this.options.path, 'a', 0o600);
    this.size = existing;
  }

  private rotate(): void {
    this.close();
    this.openNew();
    this.prune();
  }

  /** Moves the current file (if any) to its backup name and opens an empty one of the same mode. */
  private openNew(): void {
    const { path } = this.options;
    mkdirSync(dirname(path), { recursive: true, mode: 0o755 });
    let mode = 0o600;
    try {
      mode = statSync(path).mode & 0o777;
      const ext = extname(path);
      renameSync(path, join(dirname(path), `${basename(path, ext)}-${backupTimestamp(this.now())}${ext}`));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
    this.fd = openSync(path, 'w', mode);
    this.size = fstatSync(this.fd).size;
  }

  /** Removes backups past maxBackups (oldest first) and older than maxAge days (lumberjack's millRunOnce). */
  private prune(): void {
    const { path, maxBackups, maxAgeDays } = this.options;
    if (maxBackups === 0 && maxAgeDays === 0) return;
    const ext = extname(path);
    const prefix = `${basename(path, ext)}-`;
    let backups: { name: string; ms: number }[];
    try {
      backups = readdirSync(dirname(path), { withFileTypes: true })
        .filter((e) => e.isFile())
        .map((e) => ({ name: e.name, ms: timestampOf(e.name, prefix, ext) }))
        .filter((b): b is { name: string; ms: number } => b.ms !== undefined)
        .sort((a, b) => b.ms - a.ms);
    } catch {
      return;
    }
    const remove = maxBackups > 0 ? backups.slice(maxBackups) : [];
    let kept = maxBackups > 0 ? backups.slice(0, maxBackups) : backups;
    if (maxAgeDays > 0) {
      const cutoff = this.now() - maxAgeDays * dayMs;
      remove.push(...kept.filter((b) => b.ms < cutoff));
      kept = kept.filter((b) => b.ms >= cutoff);
    }
    for (const b of remove) {
      try {
        unlinkSync(join(dirname(path), b.name));
      } catch {
        // Already gone: another pass removed it.
      }
    }
  }
}
