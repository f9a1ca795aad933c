// A multi-process cluster for the operations tests: like cluster-fixture's, with the replicas'
// output kept in a ReplicaLogBuffer (shown when the cluster never gets ready) and a readiness
// timeout that survives a loaded 2-core machine (each replica compiles its sources at start).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { replicaNames, startLocalCluster, type LocalCluster } from '../../internal/cluster/local-cluster.ts';
import { fastRaftArgs } from './cluster-fixture.ts';
import { freePorts } from './free-ports.ts';
import { ReplicaLogBuffer, withReplicaLogs } from './replica-log-buffer.ts';

/** How long a replica may take to answer /readyz after it was started. */
export const replicaReadyTimeoutMs = 120_000;

/** A running cluster, its logs, and cleanup that kills every replica by pid and removes its directory. */
export interface LoggedCluster {
  readonly cluster: LocalCluster;
  readonly logs: ReplicaLogBuffer;
  readonly dataDir: string;
  close(): Promise<void>;
}

/** Starts 3 replicas with fast Raft timing on free ports in a fresh temp directory. */
export async function startLoggedCluster(options: { extraArgs?: readonly string[] } = {}): Promise<LoggedCluster> {
  const count = 3;
  const logs = new ReplicaLogBuffer();
  const ports = await freePorts(count * 2);
  const dataDir = mkdtempSync(join(tmpdir(), 'orch-e2e-ops-'));
  try {
    const cluster = await withReplicaLogs(logs, replicaNames(count), () => startLocalCluster({
      dataDir,
      host: '127.0.0.1',
      apiPorts: ports.slice(0, count),
      peerPorts: ports.slice(count),
      kubeconfigPath: join(dataDir, 'kubeconfig'),
      output: logs,
      readyTimeoutMs: replicaReadyTimeoutMs,
      extraArgs: [...fastRaftArgs, ...(options.extraArgs ?? [])],
    }));
    return {
      cluster,
      logs,
      dataDir,
      async close() {
        await cluster.stop();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
}

/**
 * Waits for replica `name` of `cluster` (just started) to answer /readyz; fails at once, with its
 * last words, when its process exits first (a replica that cannot start never gets ready).
 */
export async function waitStartedReady(cluster: LocalCluster, name: string, logs: ReplicaLogBuffer): Promise<void> {
  const child = cluster.replicas.find((r) => r.spec.name === name)?.process;
  if (child === null || child === undefined) throw new Error(`${name} is not running`);
  let onExit: (() => void) | undefined;
  const exited = new Promise<never>((_, reject) => {
    onExit = () => setTimeout(() => reject(new Error(`${name} exited before it was ready (exit ${String(child.exitCode ?? child.signalCode)}):\n${logs.tail(name, 15)}`)), 200);
    child.once('exit', onExit);
  });
  try {
    await Promise.race([exited, cluster.waitReady([name], replicaReadyTimeoutMs).catch((error: unknown) => {
      throw new Error(`${name} is not ready: ${String(error)}\n${logs.tail(name, 15)}`);
    })]);
  } finally {
    if (onExit !== undefined) child.off('exit', onExit);
  }
}
