// The 3-replica orch cluster under test: started with the project's own local-cluster launcher,
// one client per replica, and the process facts the benchmark reads (leader, peak memory).
import { join } from 'node:path';
import { killChildrenMentioning, killPid, onCleanup } from './cleanup.ts';
import { OrchClient } from './orch-client.ts';
import { procMemoryBytes, resetPeakRss } from './proc-stats.ts';
import { startLocalCluster, type LocalCluster } from '../internal/cluster/local-cluster.ts';
import { freePorts } from '../test/support/free-ports.ts';

/** A running orch cluster and a client per replica (same order as `cluster.replicas`). */
export interface OrchTarget {
  readonly cluster: LocalCluster;
  readonly clients: readonly OrchClient[];
  stop(): Promise<void>;
}

/** BENCH_ORCH_ARGS: flags added to every replica's command line, for an A/B of a flag (e.g. --enable-priority-and-fairness=false). */
export const extraOrchArgs: readonly string[] = (process.env['BENCH_ORCH_ARGS'] ?? '').split(' ').filter(Boolean);

/** Starts 3 replicas under `dataDir`; every replica is SIGKILLed on stop and at process exit. */
export async function startOrch(options: { dataDir: string; replicas: number; readyTimeoutMs: number; connections: number; timeoutMs: number; replicaArgs?: (name: string) => readonly string[] }): Promise<OrchTarget> {
  const ports = await freePorts(options.replicas * 2);
  // Until startLocalCluster returns, its replicas are known only by their data directory.
  const removeStartingCleanup = onCleanup(() => killChildrenMentioning(options.dataDir));
  const cluster = await startLocalCluster({
    dataDir: options.dataDir,
    host: '127.0.0.1',
    apiPorts: ports.slice(0, options.replicas),
    peerPorts: ports.slice(options.replicas),
    kubeconfigPath: join(options.dataDir, 'kubeconfig'),
    output: process.env['BENCH_REPLICA_OUTPUT'] === '1' ? 'prefixed' : 'ignore',
    readyTimeoutMs: options.readyTimeoutMs,
    replicaArgs: (name) => [...(options.replicaArgs?.(name) ?? []), ...extraOrchArgs],
  });
  const removeCleanup = onCleanup(() => cluster.replicas.forEach((r) => killPid(r.process?.pid)));
  removeStartingCleanup();
  const clients = cluster.replicas.map((r) => new OrchClient(r.apiUrl, cluster.caPem, cluster.adminToken, { connections: options.connections, timeoutMs: options.timeoutMs }));
  return {
    cluster,
    clients,
    async stop() {
      await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
      await cluster.stop();
      removeCleanup();
    },
  };
}

/** Creates namespace `name` (an existing one is fine). */
export async function ensureNamespace(client: OrchClient, name: string): Promise<void> {
  await client.call('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name } }, [200, 201, 409]);
}

/** The index of the replica whose /metrics says `orch_raft_is_leader 1`, or null when none does. */
export async function findLeader(target: OrchTarget): Promise<number | null> {
  const answers = await Promise.all(target.clients.map((c, i) =>
    target.cluster.replicas[i]?.process === null ? Promise.resolve('') : c.metrics().catch(() => '')));
  const index = answers.findIndex((text) => /^orch_raft_is_leader 1\b/m.test(text));
  return index === -1 ? null : index;
}

/** Resets each replica's peak RSS (VmHWM) so the next reading covers only what follows; false if the kernel refused. */
export function resetPeakMemory(target: OrchTarget): boolean {
  let ok = true;
  for (const replica of target.cluster.replicas) {
    if (replica.process?.pid === undefined) continue;
    if (!resetPeakRss(replica.process.pid)) ok = false;
  }
  return ok;
}

/** The largest peak RSS (VmHWM) among the running replicas, in MiB; null when unreadable. */
export function peakMemoryMiB(target: OrchTarget): number | null {
  let max: number | null = null;
  for (const replica of target.cluster.replicas) {
    if (replica.process?.pid === undefined) continue;
    // null: the replica exited; it has no peak any more
    const bytes = procMemoryBytes(replica.process.pid, 'VmHWM');
    if (bytes !== null) max = Math.max(max ?? 0, bytes / (1024 * 1024));
  }
  return max;
}

/** The client of replica `seq mod N` (spreads operations over every replica). */
export function pickClient(target: OrchTarget, seq: number): OrchClient {
  const client = target.clients[seq % target.clients.length];
  if (client === undefined) throw new Error('assert: orch target has no clients');
  return client;
}
