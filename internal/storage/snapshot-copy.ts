// A consistent copy of a state-machine database file, made on a worker thread with its own
// connection: `VACUUM INTO` reads one snapshot of the WAL database while the main thread goes on
// applying, and the copy's fsync runs there too. SQLite's online backup on the main connection
// instead copies on the event loop and ends with an fsync of the whole copy: a stall of tens of ms
// for every request, every snapshot.
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/** better-sqlite3 as the worker must load it (an eval'd worker resolves modules from the cwd otherwise). */
const betterSqlite3Path = createRequire(import.meta.url).resolve('better-sqlite3');

// CommonJS, evaluated as the worker's main script. Errors go back as messages: an SqliteError
// thrown across the thread boundary arrives without its message.
const copySource = `
const { parentPort, workerData } = require('node:worker_threads');
const { closeSync, fsyncSync, openSync } = require('node:fs');
const { dirname } = require('node:path');
const Database = require(workerData.betterSqlite3Path);
try {
  // Read-only: a read-write connection that finds itself the last one on close checkpoints and
  // deletes "<file>-wal" by name, which after a restore (the file renamed over) is the live WAL.
  const db = new Database(workerData.source, { readonly: true, fileMustExist: true });
  try {
    db.prepare('VACUUM INTO ?').run(workerData.destination);
  } finally {
    db.close();
  }
  // VACUUM INTO does not sync its output; the copy and its directory entry must be durable before
  // the Raft log records the snapshot and drops the entries it covers.
  for (const path of [workerData.destination, dirname(workerData.destination)]) {
    const fd = openSync(path, 'r');
    try { fsyncSync(fd); } finally { closeSync(fd); }
  }
  parentPort.postMessage({ error: null });
} catch (err) {
  parentPort.postMessage({ error: err instanceof Error ? err.message : String(err) });
}
`;

/**
 * Writes a consistent, durable copy of the SQLite database at `source` to `destination` (which
 * must not exist) without blocking the event loop. Rejects with the reason when it cannot.
 */
export function copyDatabaseOffThread(source: string, destination: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(copySource, { eval: true, workerData: { betterSqlite3Path, source, destination } });
    let outcome: { error: string | null } | null = null;
    worker.once('message', (message: { error: string | null }) => (outcome = message));
    worker.once('error', reject);
    worker.once('exit', (code) => {
      if (outcome === null) reject(new Error(`the snapshot copy of ${source} ended (exit code ${code}) without an outcome`));
      else if (outcome.error !== null) reject(new Error(`snapshot copy of ${source} to ${destination}: ${outcome.error}`));
      else resolve();
    });
  });
}
