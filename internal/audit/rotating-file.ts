// The audit log file with lumberjack's rotation (gopkg.in/natefinch/lumberjack.v2, which
// kube-apiserver writes its audit log through): a write that would take the file past maxSize
// first renames it to `<name>-<UTC 2006-01-02T15-04-05.000><ext>` and starts an empty file of the
// same mode; then (lumberjack's mill) backups beyond maxBackups (newest kept) and older than
// maxAge days are removed (0: no limit), compressed backups (`<name>-<time><ext>.gz`) counted as
// well, and with compress every remaining plain backup is gzipped, in the background, to
// `<backup>.gz` (same mode) and removed. Writes are synchronous: a line is in the file
// when write returns; a write that fails is cut back off, so the file holds whole lines only.
import { closeSync, createReadStream, createWriteStream, fstatSync, ftruncateSync, mkdirSync, openSync, readdirSync, renameSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';

/** How the file rotates. */
export interface RotationOptions {
  readonly path: string;
  /** Bytes before a rotation; 0 is lumberjack's default, 100 MB. */
  readonly maxSizeBytes: number;
  /** Backups kept; 0 keeps all. */
  readonly maxBackups: number;
  /** Days a backup is kept; 0 keeps them whatever their age. */
  readonly maxAgeDays: number;
  /** --audit-log-compress: gzip rotated backups. */
  readonly compress?: boolean;
  /** The clock (tests); default Date.now. */
  readonly nowMs?: () => number;
  /** The write call (tests inject a failing one); default fs.writeSync. */
  readonly writeSync?: (fd: number, buffer: Buffer, offset: number) => number;
}

const megabyte = 1024 * 1024;
const defaultMaxSizeBytes = 100 * megabyte;
const dayMs = 24 * 60 * 60 * 1000;
const compressSuffix = '.gz';

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

/**
 * Makes `dir` and its missing parents (mode 0700, as kube's ensureLogFile), one component at a
 * time: Node's recursive mkdir spins forever on some paths under /proc. Throws one line.
 */
export function ensureDirectory(dir: string): void {
  const missing: string[] = [];
  let current = dir;
  for (;;) {
    try {
      if (!statSync(current).isDirectory()) throw new Error(`cannot create directory ${dir}: ${current} is not a directory`);
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
    missing.push(current);
    const parent = dirname(current);
    if (parent === current) break;
    current = parent;
  }
  for (const component of missing.reverse()) {
    try {
      mkdirSync(component, { mode: 0o700 });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EEXIST') continue;
      throw new Error(`cannot create directory ${component}: ${(err as Error).message}`);
    }
  }
}

interface Backup {
  readonly name: string;
  readonly ms: number;
  readonly compressed: boolean;
}

/** A log file that rotates as lumberjack's Logger does. Not safe for two processes at once. */
export class RotatingFile {
  private fd: number | undefined;
  private size = 0;
  private readonly maxBytes: number;
  private readonly now: () => number;
  private readonly writeCall: (fd: number, buffer: Buffer, offset: number) => number;
  /** The background mill (prune, compress): runs one at a time. */
  private milling: Promise<void> = Promise.resolve();

  /** Creates the file (mode 0600, its directory 0700) when missing, as kube-apiserver does at start: a path that cannot be written throws now. */
  constructor(private readonly options: RotationOptions) {
    this.maxBytes = options.maxSizeBytes > 0 ? options.maxSizeBytes : defaultMaxSizeBytes;
    this.now = options.nowMs ?? Date.now;
    this.writeCall = options.writeSync ?? ((fd, buffer, offset) => writeSync(fd, buffer, offset));
    ensureDirectory(dirname(options.path));
    closeSync(openSync(options.path, 'a', 0o600));
  }

  /** Appends `text` (rotating first when it would not fit). Throws the file system's error, leaving the file as it was. */
  write(text: string): void {
    const bytes = Buffer.from(text, 'utf8');
    if (bytes.length > this.maxBytes) throw new Error(`write length ${bytes.length} exceeds maximum file size ${this.maxBytes}`);
    if (this.fd === undefined) this.openExistingOrNew(bytes.length);
    if (this.size + bytes.length > this.maxBytes) this.rotate();
    const fd = this.fd;
    if (fd === undefined) throw new Error('assert: the audit log is open after opening it');
    let written = 0;
    try {
      while (written < bytes.length) written += this.writeCall(fd, bytes, written);
    } catch (err) {
      this.cutBack(fd);
      throw err;
    }
    this.size += written;
  }

  /** Resolves when the background pruning and compression started so far are done (tests, shutdown). */
  idle(): Promise<void> {
    return this.milling;
  }

  /** Closes the file (a later write opens it again). */
  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }

  /** Truncates the file back to its size before a failed write (no half line); closes it when even that fails. */
  private cutBack(fd: number): void {
    try {
      ftruncateSync(fd, this.size);
    } catch {
      // The next write reopens the file and takes its size as it is.
      this.close();
    }
  }

  private openExistingOrNew(writeBytes: number): void {
    this.mill();
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
    this.mill();
  }

  /** Moves the current file (if any) to its backup name and opens an empty one of the same mode. */
  private openNew(): void {
    const { path } = this.options;
    ensureDirectory(dirname(path));
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

  /** lumberjack's millRunOnce: prunes now, then queues the compression of the plain backups kept (compress). */
  private mill(): void {
    this.prune();
    if (this.options.compress === true) this.milling = this.milling.then(() => this.compressBackups()).catch(() => undefined);
  }

  /** The backups in the directory, newest first; a backup present both plain and gzipped counts once. */
  private backups(): Backup[] {
    const { path } = this.options;
    const ext = extname(path);
    const prefix = `${basename(path, ext)}-`;
    const found = new Map<number, Backup>();
    for (const entry of readdirSync(dirname(path), { withFileTypes: true })) {
      if (!entry.isFile()) continue;
      const compressed = entry.name.endsWith(ext + compressSuffix);
      const ms = timestampOf(compressed ? entry.name.slice(0, -compressSuffix.length) : entry.name, prefix, ext);
      if (ms === undefined) continue;
      const seen = found.get(ms);
      // As lumberjack: only the uncompressed file or the compressed one counts, not both.
      if (seen === undefined || (seen.compressed && !compressed)) found.set(ms, { name: entry.name, ms, compressed });
    }
    return [...found.values()].sort((a, b) => b.ms - a.ms);
  }

  /** Removes backups past maxBackups (oldest first) and older than maxAge days, a gzipped one as a plain one. */
  private prune(): void {
    const { path, maxBackups, maxAgeDays } = this.options;
    if (maxBackups === 0 && maxAgeDays === 0) return;
    const dir = dirname(path);
    let backups: Backup[];
    try {
      backups = this.backups();
    } catch {
      return;
    }
    const remove = maxBackups > 0 ? backups.slice(maxBackups) : [];
    const kept = maxBackups > 0 ? backups.slice(0, maxBackups) : backups;
    if (maxAgeDays > 0) {
      const cutoff = this.now() - maxAgeDays * dayMs;
      remove.push(...kept.filter((b) => b.ms < cutoff));
    }
    for (const b of remove) {
      for (const name of b.compressed ? [b.name] : [b.name, b.name + compressSuffix]) {
        try {
          unlinkSync(join(dir, name));
        } catch {
          // Already gone (or never compressed).
        }
      }
    }
  }

  /** gzips every plain backup in the directory, one after the other. */
  private async compressBackups(): Promise<void> {
    const dir = dirname(this.options.path);
    let backups: Backup[];
    try {
      backups = this.backups();
    } catch {
      return;
    }
    for (const b of backups.filter((k) => !k.compressed)) await compressFile(join(dir, b.name));
  }
}

/** gzips `src` to `src.gz` with src's mode, then removes src (lumberjack's compressLogFile). A failure leaves src as it was. */
async function compressFile(src: string): Promise<void> {
  const dst = src + compressSuffix;
  let mode: number;
  try {
    mode = statSync(src).mode & 0o777;
  } catch {
    return;
  }
  try {
    await pipeline(createReadStream(src), createGzip(), createWriteStream(dst, { mode }));
    // ENOENT: pruned while it was being compressed; the catch removes the copy too.
    unlinkSync(src);
  } catch {
    try {
      unlinkSync(dst);
    } catch {
      // Nothing was written.
    }
  }
}
