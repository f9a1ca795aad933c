import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLocalCluster, type LocalCluster } from '../../internal/cluster/local-cluster.ts';
import type { ReplicaOutput } from '../../internal/cluster/replica-process.ts';
import { TestApiClient } from './api-client.ts';
import { freePorts } from './free-ports.ts';

/** A multi-process cluster for a test, with a client per replica and cleanup that always runs. */
export interface ClusterFixture {
  readonly cluster: LocalCluster;
  readonly clients: readonly TestApiClient[];
  readonly dataDir: string;
  /** The name of the replica whose /metrics says it leads, or null if none does. */
  leader(): Promise<string | null>;
  close(): Promise<void>;
}

/** Fast Raft timing for tests: 50 ms ticks, elections after 0.5–1 s. */
export const fastRaftArgs = ['--tick-ms', '50', '--election-ticks', '10'];

/** Starts `replicas` replica processes on ports chosen at run time, in a fresh temp directory. */
export async function startClusterFixture(options: {
  replicas?: number; extraArgs?: readonly string[]; output?: ReplicaOutput; replicaArgs?: (name: string) => readonly string[];
  /** The admin token to use (a test whose own --token-auth-file replaces the cluster's lists it there too). */
  adminToken?: string;
} = {}): Promise<ClusterFixture> {
  const count = options.replicas ?? 3;
  const ports = await freePorts(count * 2);
  const dataDir = mkdtempSync(join(tmpdir(), 'orch-e2e-'));
  if (options.adminToken !== undefined) writeFileSync(join(dataDir, 'admin-token'), `${options.adminToken}\n`, { mode: 0o600 });
  let cluster: LocalCluster;
  try {
    cluster = await startLocalCluster({
      dataDir,
      host: '127.0.0.1',
      apiPorts: ports.slice(0, count),
      peerPorts: ports.slice(count),
      kubeconfigPath: join(dataDir, 'kubeconfig'),
      output: options.output ?? (process.env.ORCH_TEST_LOGS ? 'prefixed' : 'ignore'),
      readyTimeoutMs: 60_000,
      extraArgs: [...fastRaftArgs, ...(options.extraArgs ?? [])],
      ...(options.replicaArgs ? { replicaArgs: options.replicaArgs } : {}),
    });
  } catch (error) {
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  const clients = cluster.replicas.map((r) => new TestApiClient(r.apiUrl, cluster.caPem, cluster.adminToken));
  return {
    cluster,
    clients,
    dataDir,
    async leader() {
      for (const [i, client] of clients.entries()) {
        if (cluster.replicas[i]?.process === null) continue;
        const res = await client.call('GET', '/metrics').catch(() => null);
        if (res?.status === 200 && /^orch_raft_is_leader 1$/m.test(res.text)) return cluster.replicas[i]?.spec.name ?? null;
      }
      return null;
    },
    async close() {
      await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
      await cluster.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
