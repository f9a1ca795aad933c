// What the scale curve reads outside the API's JSON besides a process's memory (bench/proc-stats.ts):
// a data directory's bytes on disk, bodies too large to hold (a LIST of 100,000 objects, a
// snapshot) streamed and counted instead of parsed, and watches held open without reading them.
import { readdirSync, statSync } from 'node:fs';
import type { ClientRequest } from 'node:http';
import { Agent, request as httpsRequest } from 'node:https';
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
  /** From sending the request to the body's last byte read. */
  readonly ms: number;
  readonly bytes: number;
  /** Occurrences of the marker asked for in the body (0 without one). */
  readonly markers: number;
}

/**
 * GETs `path` from `baseUrl` as the admin, counting the body's bytes (and `marker`s) without
 * keeping it: to its end, or (a watch, which has none) until `stopAtMarkers` markers have come.
 */
export async function streamedGet(baseUrl: string, caPem: string, token: string, path: string, options: { timeoutMs: number; marker?: string; stopAtMarkers?: number; accept?: string }): Promise<StreamedAnswer> {
  // undici's timeouts take whole milliseconds.
  const timeoutMs = Math.max(1, Math.floor(options.timeoutMs));
  const pool = new Pool(baseUrl, { connect: { ca: caPem }, connections: 1, headersTimeout: timeoutMs, bodyTimeout: timeoutMs });
  try {
    const t0 = performance.now();
    const res = await pool.request({ method: 'GET', path, headers: { authorization: `Bearer ${token}`, accept: options.accept ?? 'application/json' } });
    const counter = options.marker === undefined ? null : new MarkerCounter(options.marker);
    let bytes = 0;
    for await (const chunk of res.body as AsyncIterable<Buffer>) {
      bytes += chunk.length;
      // latin1 keeps one character per byte: an ASCII marker is found whatever the UTF-8 around it.
      counter?.push(chunk.toString('latin1'));
      if (options.stopAtMarkers !== undefined && (counter?.count ?? 0) >= options.stopAtMarkers) break;
    }
    return { status: res.statusCode, ms: performance.now() - t0, bytes, markers: counter?.count ?? 0 };
  } finally {
    await pool.destroy().catch(() => undefined);
  }
}

/** Watches held open, their bodies not read. */
export interface HeldWatches {
  /** Ends every watch (destroys its connection). */
  close(): void;
}

/**
 * Opens `count` watches of `path` on `baseUrl`, each on its own connection, as the admin, and
 * resolves once every one has answered 200: their bodies are then read no further than the
 * response stream's buffer, so the server's writes to them wait, as for a stalled client. Rejects
 * (with every watch ended) when one answers otherwise or not within `timeoutMs`.
 */
export async function holdWatches(baseUrl: string, caPem: string, token: string, path: string, count: number, timeoutMs: number): Promise<HeldWatches> {
  const agent = new Agent({ ca: caPem, keepAlive: false, maxSockets: Number.POSITIVE_INFINITY });
  const requests: ClientRequest[] = [];
  const close = (): void => {
    for (const req of requests) req.destroy();
    agent.destroy();
  };
  const open = (): Promise<void> => new Promise((resolve, reject) => {
    const req = httpsRequest(new URL(path, baseUrl), { agent, headers: { authorization: `Bearer ${token}`, accept: 'application/json' } }, (res) => {
      req.setTimeout(0);
      if (res.statusCode === 200) resolve();
      else reject(new Error(`watch ${path}: status ${res.statusCode ?? 0}`));
      // No 'data' listener: the body stays paused.
    });
    requests.push(req);
    req.setTimeout(timeoutMs, () => req.destroy(new Error(`watch ${path}: no answer in ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end();
  });
  try {
    await Promise.all(Array.from({ length: count }, open));
  } catch (error) {
    close();
    throw error;
  }
  return { close };
}
