// Diagnostic: the round trip of one Raft message between two processes over orch's peer transport
// (raft/transport.ts: gRPC with mutual TLS, one 1 KiB entry per message), each side answering on
// its next turn as the Raft driver does. Read it against the machine's bare loopback round trip
// to see what one replication hop costs. Prints one JSON line.
// `node --import tsx bench/probe-peer-round-trip.ts [roundTrips]`
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureClusterPki } from '../internal/certificates/index.ts';
import { entryPointArgs } from '../internal/cluster/build-layout.ts';
import { index, makeMessage, term, type Message } from '../raft/core/index.ts';
import { Transport } from '../raft/transport.ts';
import { killPid, onCleanup, runCleanups } from './cleanup.ts';
import { percentile } from './stats.ts';

/** Unmeasured round trips before the measured ones (connection set-up, JIT). */
const warmupRoundTrips = 300;
const entryBytes = 1024;

function append(from: string, to: string, at: number): Message {
  return makeMessage({
    type: 'app', from, to, term: term(1), logTerm: term(1), index: index(at),
    entries: [{ index: index(at + 1), term: term(1), type: 'normal', data: new Uint8Array(entryBytes) }],
  });
}

async function startTransport(id: string, dir: string, onMessages: (messages: Message[]) => void): Promise<Transport> {
  const pki = await ensureClusterPki(join(dir, 'pki'), ['a', 'b']);
  const identity = pki.replicas[id];
  if (identity === undefined) throw new Error(`assert: no certificate for ${id}`);
  return Transport.start({
    id, listen: '127.0.0.1:0', peers: {}, tls: { ca: pki.ca.cert, cert: identity.cert, key: identity.key }, snapshotDir: join(dir, id),
    handlers: { onMessages, onSnapshot: () => false, onForward: () => Promise.resolve(new Uint8Array(0)), onUnreachable: () => {}, onSnapshotStatus: () => {} },
  });
}

/** The answering side, in the child process: sends each message back on its next turn. */
async function echo(dir: string, peerPort: number): Promise<void> {
  const transport: Transport = await startTransport('b', dir, (messages) => {
    for (const m of messages) setImmediate(() => {
      transport.send([append('b', 'a', m.index)]);
      transport.flush();
    });
  });
  transport.setPeer('a', `127.0.0.1:${peerPort}`);
  process.send?.(transport.port);
  process.on('disconnect', () => process.exit(0));
}

async function measure(roundTrips: number): Promise<void> {
  const dir = mkdtempSync(join(process.env['BENCH_DATA_DIR'] ?? tmpdir(), 'orch-probe-'));
  let answered: () => void = () => {};
  const transport = await startTransport('a', dir, () => setImmediate(answered));
  // This file again, from the build running it, with an IPC channel as fork() gives.
  const child = spawn(process.execPath, [...entryPointArgs('bench/probe-peer-round-trip.ts'), '--echo', dir, String(transport.port)], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  onCleanup(() => killPid(child.pid));
  try {
    const echoPort = await new Promise<number>((resolve, reject) => child.once('message', (port) => resolve(Number(port))).once('error', reject));
    transport.setPeer('b', `127.0.0.1:${echoPort}`);
    const roundTrip = (at: number): Promise<void> => new Promise((resolve) => {
      answered = resolve;
      transport.send([append('a', 'b', at)]);
      transport.flush();
    });
    for (let i = 0; i < warmupRoundTrips; i++) await roundTrip(i);
    const samples: number[] = [];
    for (let i = 0; i < roundTrips; i++) {
      const t0 = performance.now();
      await roundTrip(i);
      samples.push(performance.now() - t0);
    }
    console.log(JSON.stringify({ roundTrips, p50Ms: percentile(samples, 50), p90Ms: percentile(samples, 90), p99Ms: percentile(samples, 99) }));
  } finally {
    runCleanups();
    await transport.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[2] === '--echo') await echo(process.argv[3] ?? '', Number(process.argv[4]));
else await measure(Number(process.argv[2] ?? 3000));
