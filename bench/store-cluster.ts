// orch's replicated store as N separate OS processes on loopback (bench/store-replica.ts), the
// counterpart of bench/etcd-cluster.ts: each serves etcd's JSON gateway calls on plain HTTP, so the
// same client drives both. Every process is killed by pid on stop, on error, on Ctrl-C and at exit.
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { ensureClusterPki } from '../internal/certificates/index.ts';
import { entryPointArgs, repoRoot } from '../internal/cluster/build-layout.ts';
import { replicaNodeArgs } from '../internal/cluster/replica-process.ts';
import { freePorts } from '../test/support/free-ports.ts';
import { killPid, onCleanup } from './cleanup.ts';
import type { GatewayCluster } from './etcd-client.ts';
import { waitHttpOk } from './http-wait.ts';

/** How long `stop()` waits after SIGTERM before it SIGKILLs. */
export const stopGraceMs = 5_000;
/** Characters of each replica's stderr kept for the error of a failed start. */
const stderrTailChars = 4_000;
/** Lines of each stderr tail quoted in that error. */
const stderrTailLines = 5;

/** A running store cluster: one client URL per replica (plain HTTP) and a stop that ends every process. */
export type StoreCluster = GatewayCluster;

/** How to start the cluster. */
export interface StoreClusterOptions {
  readonly dataDir: string;
  readonly replicas: number;
  readonly readyTimeoutMs: number;
}

/** Starts the replicas and waits until each knows a leader; on failure kills them all and throws with their stderr tails. */
export async function startStoreCluster(options: StoreClusterOptions): Promise<StoreCluster> {
  const names = Array.from({ length: options.replicas }, (_, i) => `store-${i + 1}`);
  const pkiDir = join(options.dataDir, 'pki');
  // Every certificate exists before any replica starts: the replicas only load theirs.
  await ensureClusterPki(pkiDir, names);
  const ports = await freePorts(options.replicas * 2);
  const peerAddresses = names.map((_, i) => `127.0.0.1:${ports[i]}`);
  const httpPorts = names.map((_, i) => ports[options.replicas + i] ?? 0);
  const peers = names.map((n, i) => `${n}=${peerAddresses[i]}`).join(',');
  const children: ChildProcess[] = [];
  const removeCleanups: (() => void)[] = [];
  const stderrTails = names.map(() => '');
  for (const [i, name] of names.entries()) {
    const child = spawn(process.execPath, [
      // Node flags for every replica, as orch's replicas take them (e.g. --cpu-prof).
      ...replicaNodeArgs(),
      ...entryPointArgs('bench/store-replica.ts'),
      '--name', name,
      '--data-dir', join(options.dataDir, name),
      '--pki-dir', pkiDir,
      '--listen', peerAddresses[i] ?? '',
      '--peers', peers,
      '--http-port', String(httpPorts[i]),
    ], { cwd: repoRoot, stdio: ['ignore', 'ignore', 'pipe'] });
    children.push(child);
    child.once('error', (error) => {
      stderrTails[i] = `${stderrTails[i] ?? ''}\nspawn failed: ${error.message}`;
    });
    removeCleanups.push(onCleanup(() => killPid(child.pid)));
    // Always drained: a full pipe would block the replica's writes to stderr.
    child.stderr?.on('data', (chunk: Buffer) => {
      stderrTails[i] = ((stderrTails[i] ?? '') + chunk.toString()).slice(-stderrTailChars);
    });
  }
  const stop = async (): Promise<void> => {
    await Promise.all(children.map((child) => stopChild(child)));
    removeCleanups.forEach((remove) => remove());
  };
  const clientUrls = httpPorts.map((port) => `http://127.0.0.1:${port}`);
  try {
    // A replica that exited will never answer: fail at once instead of at the deadline.
    const givenUp = (): string | null => {
      const exited = children.findIndex((c) => c.pid === undefined || c.exitCode !== null || c.signalCode !== null);
      return exited === -1 ? null : `replica ${exited + 1} exited or never started (${children[exited]?.exitCode ?? children[exited]?.signalCode ?? 'no pid'})`;
    };
    await Promise.all(clientUrls.map((url) => waitHttpOk(`${url}/ready`, { timeoutMs: options.readyTimeoutMs, accept: (status) => status === 200, givenUp })));
  } catch (error) {
    children.forEach((c) => killPid(c.pid));
    await stop();
    const tails = stderrTails.map((t, i) => `${names[i]}: ${t.trim().split('\n').slice(-stderrTailLines).join(' | ')}`).join('\n');
    throw new Error(`orch store cluster did not become ready: ${error instanceof Error ? error.message : String(error)}\n${tails}`);
  }
  return { clientUrls, pids: children.map((c) => c.pid ?? -1), stop };
}

/** SIGTERM, then SIGKILL if the process is still there after `stopGraceMs`. */
function stopChild(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    // No pid: the spawn itself failed, there is nothing to stop.
    if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return resolve();
    const timer = setTimeout(() => killPid(child.pid), stopGraceMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}
