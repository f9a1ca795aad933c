// What the scale curve reads outside the API's JSON besides a process's memory (bench/proc-stats.ts):
// a data directory's bytes on disk, and bodies too large to hold (a LIST of 100,000 objects, a
// snapshot) streamed and counted instead of parsed.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Pool } from 'undici';

/** Bytes of every regular file under `dir` (apparent sizes, recursively); 0 when it is missing. */
export function directoryBytes(dir: string): number {
  let total = 0;
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return 0;
  }
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) total += directoryBytes(path);
    else if (entry.isFile()) {
      try {
        total += statSync(path).size;
      } catch {
        // removed while we looked (a compaction's old file)
      }
    }
  }
  return total;
}

/** Counts the occurrences of `marker` in a stream of chunks, including those split across two chunks. */
export class MarkerCounter {
  count = 0;
  private tail = '';

  constructor(private readonly marker: string) {
    if (marker === '') throw new Error('assert: an empty marker counts nothing');
  }

  push(chunk: string): void {
    const text = this.tail + chunk;
    for (let at = text.indexOf(this.marker); at !== -1; at = text.indexOf(this.marker, at + this.marker.length)) this.count++;
    // Keep what could be the start of a marker the next chunk finishes (never a whole one: counted).
    this.tail = text.slice(Math.max(0, text.length - (this.marker.length - 1)));
  }
}

/** What a streamed GET took. */
export interface StreamedAnswer {
  readonly status: number;
  /** From sending the request to the body's last byte. */
  readonly ms: number;
  readonly bytes: number;
  /** Occurrences of the marker asked for in the body (0 without one). */
  readonly markers: number;
}

/** GETs `path` from `baseUrl` as the admin, counting the body's bytes (and `marker`s) without keeping it. */
export async function streamedGet(baseUrl: string, caPem: string, token: string, path: string, options: { timeoutMs: number; marker?: string; accept?: string }): Promise<StreamedAnswer> {
  const pool = new Pool(baseUrl, { connect: { ca: caPem }, connections: 1, headersTimeout: options.timeoutMs, bodyTimeout: options.timeoutMs });
  try {
    const t0 = performance.now();
    const res = await pool.request({ method: 'GET', path, headers: { authorization: `Bearer ${token}`, accept: options.accept ?? 'application/json' } });
    const counter = options.marker === undefined ? null : new MarkerCounter(options.marker);
    let bytes = 0;
    for await (const chunk of res.body as AsyncIterable<Buffer>) {
      bytes += chunk.length;
      // latin1 keeps one character per byte: an ASCII marker is found whatever the UTF-8 around it.
      counter?.push(chunk.toString('latin1'));
    }
    return { status: res.statusCode, ms: performance.now() - t0, bytes, markers: counter?.count ?? 0 };
  } finally {
    await pool.destroy().catch(() => undefined);
  }
}
