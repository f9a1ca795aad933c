// The limits of this machine, measured in the same run as the rest: what the disk, the loopback
// network between two processes and a bare HTTP/2 server can do, so every other number can be
// read against them.
import { closeSync, fdatasyncSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { connect as connectHttp2, constants as h2 } from 'node:http2';
import { spawn, type ChildProcess } from 'node:child_process';
import { createConnection, type Socket } from 'node:net';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { killPid, onCleanup } from './cleanup.ts';
import { percentile } from './stats.ts';

/** What the machine can do. */
export interface MachineLimits {
  readonly fdatasyncPerSecond: number;
  /** p50 of one fdatasync when `replicasOnOneDisk` appenders start theirs together, as a cluster's replicas do; null if that failed. */
  readonly fdatasyncInStepP50Ms: number | null;
  readonly loopbackRoundTripP50Ms: number;
  readonly http2RequestsPerSecond: number;
  /** Measurements that failed without spoiling the others (the run prints them under the table). */
  readonly warnings: readonly string[];
}

/** Appends 4 KiB and fdatasyncs, in a loop for `durationMs`, in a temp dir under `dir` (same disk as the data). */
function measureFdatasync(dir: string, durationMs: number): number {
  const tmp = mkdtempSync(join(dir, 'fsync-'));
  const fd = openSync(join(tmp, 'probe'), 'w');
  const block = Buffer.alloc(4096, 7);
  try {
    let syncs = 0;
    const start = performance.now();
    while (performance.now() - start < durationMs) {
      writeSync(fd, block);
      fdatasyncSync(fd);
      syncs++;
    }
    return (syncs * 1000) / (performance.now() - start);
  } finally {
    closeSync(fd);
    rmSync(tmp, { recursive: true, force: true });
  }
}

/** How many replicas share the disk in the benchmark's clusters (3 orch replicas, 3 etcd members). */
export const replicasOnOneDisk = 3;

// One appender per thread. The last to reach the barrier decides whether to go on and opens it, so
// every thread starts its append and fdatasync at the same moment, as replicas do when an entry
// reaches them together. The clock starts when all have arrived once: threads take tens of ms to
// boot, which must not eat the measured time.
const inStepAppenderSource = `
const { parentPort, workerData } = require('node:worker_threads');
const { closeSync, fdatasyncSync, openSync, writeSync } = require('node:fs');
const { shared, writers, path, durationMs } = workerData;
const barrier = new Int32Array(shared, 0, 3); // [arrived, generation, stop]
const deadline = new Float64Array(shared, 16, 1); // epoch ms, 0 until every thread arrived once
const stopAll = () => { Atomics.store(barrier, 2, 1); Atomics.add(barrier, 1, 1); Atomics.notify(barrier, 1); };
const samples = [];
try {
  const fd = openSync(path, 'w');
  const block = Buffer.alloc(4096, 7);
  try {
    for (;;) {
      const generation = Atomics.load(barrier, 1);
      if (Atomics.add(barrier, 0, 1) === writers - 1) {
        Atomics.store(barrier, 0, 0);
        if (deadline[0] === 0) deadline[0] = Date.now() + durationMs;
        else if (Date.now() >= deadline[0]) Atomics.store(barrier, 2, 1);
        Atomics.add(barrier, 1, 1);
        Atomics.notify(barrier, 1);
      } else {
        // Timed waits: a thread that failed stops the others even if a wake-up is missed.
        while (Atomics.load(barrier, 1) === generation && Atomics.load(barrier, 2) === 0) Atomics.wait(barrier, 1, generation, 1000);
      }
      if (Atomics.load(barrier, 2) === 1) break;
      const t0 = performance.now();
      writeSync(fd, block);
      fdatasyncSync(fd);
      samples.push(performance.now() - t0);
    }
  } finally {
    closeSync(fd);
  }
  parentPort.postMessage({ samples, error: null });
} catch (err) {
  stopAll();
  parentPort.postMessage({ samples, error: err instanceof Error ? err.message : String(err) });
}
`;

/** What one appender thread reports. */
interface AppenderOutcome {
  readonly samples: number[];
  readonly error: string | null;
}

function appenderOutcome(worker: Worker): Promise<AppenderOutcome> {
  return new Promise((resolve, reject) => {
    worker.once('message', resolve).once('error', reject);
    // After a message this does nothing; without one, the thread died and will never answer.
    worker.once('exit', (code) => reject(new Error(`an appender thread exited (code ${code}) without an outcome`)));
  });
}

/**
 * p50 of one 4 KiB append plus fdatasync, in milliseconds, when one thread per file of `paths`
 * starts its own at the same moment as the others, for `durationMs`. The replicas of one cluster on
 * one disk sync together: this, not one lone fdatasync, is what each of them waits for. Rejects with
 * the reason when a file cannot be written, or when no sample was taken.
 */
export async function fdatasyncInStep(paths: readonly string[], durationMs: number): Promise<number> {
  const shared = new SharedArrayBuffer(24);
  const workers: Worker[] = [];
  try {
    for (const path of paths) workers.push(new Worker(inStepAppenderSource, { eval: true, workerData: { shared, writers: paths.length, path, durationMs } }));
    const outcomes = await Promise.all(workers.map(appenderOutcome));
    const failed = outcomes.find((o) => o.error !== null);
    if (failed !== undefined) throw new Error(`fdatasync in step: ${failed.error}`);
    const samples = outcomes.flatMap((o) => o.samples);
    if (samples.length === 0) throw new Error('fdatasync in step: no sample taken');
    return percentile(samples, 50);
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
}

/** `fdatasyncInStep` with `writers` files in a temp dir under `dir` (same disk as the data), removed afterwards. */
export async function measureFdatasyncInStep(dir: string, writers: number, durationMs: number): Promise<number> {
  const tmp = mkdtempSync(join(dir, 'fsync-in-step-'));
  try {
    return await fdatasyncInStep(Array.from({ length: writers }, (_, i) => join(tmp, `probe-${i}`)), durationMs);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

// The echo side of the round trip, as its own process: replicas are separate processes, so a round
// trip between them pays for waking another process, which one event loop echoing to itself does not.
const echoServerSource = `
const server = require('node:net').createServer((socket) => {
  socket.setNoDelay(true);
  socket.on('data', (data) => socket.write(data));
});
server.listen(0, '127.0.0.1', () => process.stdout.write(server.address().port + '\\n'));
process.stdin.on('end', () => process.exit(0)).resume();
`;

/** How long the echo process may take to start listening. */
const echoStartTimeoutMs = 10_000;

/** Starts the echo process; resolves with it and its port. On failure the process is killed. */
async function startEchoProcess(): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(process.execPath, ['-e', echoServerSource], { stdio: ['pipe', 'pipe', 'inherit'] });
  let timer: NodeJS.Timeout | undefined;
  try {
    const port = await new Promise<number>((resolve, reject) => {
      timer = setTimeout(() => reject(new Error('the echo process did not listen in time')), echoStartTimeoutMs);
      child.once('error', reject);
      child.once('exit', (code) => reject(new Error(`the echo process exited (code ${code}) before listening`)));
      child.stdout?.once('data', (line: Buffer) => resolve(Number(line.toString().trim())));
    });
    return { child, port };
  } catch (error) {
    killPid(child.pid);
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

/** One answer on `socket`; rejects if the connection closes or fails first. */
function nextAnswer(socket: Socket): Promise<void> {
  return new Promise((resolve, reject) => {
    const closed = (): void => reject(new Error('the echo connection closed mid-measurement'));
    socket.once('close', closed).once('error', closed);
    socket.once('data', () => {
      socket.off('close', closed).off('error', closed);
      resolve();
    });
  });
}

/** p50 of a 1-byte ping-pong over loopback TCP (Nagle off) between this process and another, in milliseconds. */
export async function measureLoopbackRoundTrip(roundTrips: number): Promise<number> {
  const { child, port } = await startEchoProcess();
  const removeCleanup = onCleanup(() => killPid(child.pid));
  const socket = createConnection({ host: '127.0.0.1', port });
  socket.setNoDelay(true);
  try {
    await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
    const samples: number[] = [];
    for (let i = 0; i < roundTrips; i++) {
      const t0 = performance.now();
      const answered = nextAnswer(socket);
      socket.write('x');
      await answered;
      samples.push(performance.now() - t0);
    }
    return percentile(samples, 50);
  } finally {
    socket.destroy();
    killPid(child.pid);
    removeCleanup();
  }
}

// The server runs on its own thread so that client and server do not share one event loop.
const http2ServerSource = `
const { parentPort } = require('node:worker_threads');
const http2 = require('node:http2');
const server = http2.createServer((req, res) => { res.writeHead(200, { 'content-type': 'text/plain' }); res.end('ok'); });
server.listen(0, '127.0.0.1', () => parentPort.postMessage(server.address().port));
parentPort.on('message', () => server.close(() => process.exit(0)));
`;

/** Requests per second of a bare node:http2 (h2c) server, driven with `streams` concurrent streams for `durationMs`. */
async function measureHttp2(durationMs: number, streams: number): Promise<number> {
  const worker = new Worker(http2ServerSource, { eval: true });
  try {
    const port = await new Promise<number>((resolve, reject) => worker.once('message', resolve).once('error', reject));
    const session = connectHttp2(`http://127.0.0.1:${port}`);
    try {
      let done = 0;
      const start = performance.now();
      const deadline = start + durationMs;
      const one = (): Promise<void> => new Promise((resolve, reject) => {
        const stream = session.request({ [h2.HTTP2_HEADER_PATH]: '/' });
        stream.on('error', reject);
        stream.resume();
        stream.on('end', () => resolve());
      });
      await Promise.all(Array.from({ length: streams }, async () => {
        while (performance.now() < deadline) {
          await one();
          done++;
        }
      }));
      return (done * 1000) / (performance.now() - start);
    } finally {
      session.destroy();
    }
  } finally {
    await worker.terminate();
  }
}

/** Measures every limit, one after the other. */
export async function measureMachineLimits(options: { dataDir: string; fsyncMs: number; roundTrips: number; http2Ms: number; http2Streams: number }): Promise<MachineLimits> {
  const fdatasyncPerSecond = measureFdatasync(options.dataDir, options.fsyncMs);
  const warnings: string[] = [];
  // Only an info line reads it: its failure must not cost the limits the targets are judged on.
  const fdatasyncInStepP50Ms = await measureFdatasyncInStep(options.dataDir, replicasOnOneDisk, options.fsyncMs).catch((error: unknown) => {
    warnings.push(`machine: ${error instanceof Error ? error.message : String(error)}`);
    return null;
  });
  const loopbackRoundTripP50Ms = await measureLoopbackRoundTrip(options.roundTrips);
  const http2RequestsPerSecond = await measureHttp2(options.http2Ms, options.http2Streams);
  return { fdatasyncPerSecond, fdatasyncInStepP50Ms, loopbackRoundTripP50Ms, http2RequestsPerSecond, warnings };
}
