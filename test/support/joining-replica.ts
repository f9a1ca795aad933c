// A replica process beyond a local cluster's founding ones: started empty with --join (issuing its
// own peer certificate from the cluster's CA in the shared pki directory), or restored from a
// snapshot; the test owns it and kills it by pid.
import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import type { LocalCluster } from '../../internal/cluster/local-cluster.ts';
import { spawnReplica, type ReplicaOutput, type ReplicaSpec } from '../../internal/cluster/replica-process.ts';

/** A replica process the test started on its own. */
export interface ExtraReplica {
  readonly spec: ReplicaSpec;
  readonly apiUrl: string;
  readonly process: ChildProcess;
  /** Whether the process exited (a replica that cannot start exits). */
  hasExited(): boolean;
  /** Kills the process by pid (SIGKILL) and waits for it to exit; a no-op once it exited. */
  kill(): Promise<void>;
}

/** Starts `spec` as its own process. */
export function startExtraReplica(spec: ReplicaSpec, output: ReplicaOutput): ExtraReplica {
  const child = spawnReplica(spec, output);
  let exited = false;
  const exit = new Promise<void>((resolve) => child.once('exit', () => {
    exited = true;
    resolve();
  }));
  return {
    spec,
    apiUrl: `https://${spec.apiAddress}`,
    process: child,
    hasExited: () => exited,
    async kill() {
      if (exited) return;
      child.kill('SIGKILL');
      await exit;
    },
  };
}

/** How a new member joins `cluster`. */
export interface JoinOptions {
  readonly name: string;
  readonly apiPort: number;
  readonly peerPort: number;
  /** Peer addresses (host:port) of running members to ask. */
  readonly join: readonly string[];
  readonly host?: string;
}

/**
 * The spec of a new member of `cluster` started with `--join`: an empty data directory next to the
 * founding members', the cluster's pki directory and authentication files, and the same extra
 * flags as the founding replicas (fast Raft timing in tests).
 */
export function joiningSpec(cluster: LocalCluster, options: JoinOptions): ReplicaSpec {
  const founder = cluster.replicas[0]?.spec;
  if (founder === undefined) throw new Error('assert: a local cluster has replicas');
  const host = options.host ?? '127.0.0.1';
  const peerAddress = `${host}:${options.peerPort}`;
  return {
    name: options.name,
    dataDir: join(founder.dataDir, '..', options.name),
    pkiDir: founder.pkiDir,
    authentication: founder.authentication,
    apiAddress: `${host}:${options.apiPort}`,
    peerAddress,
    peers: { [options.name]: peerAddress },
    extraArgs: [...(founder.extraArgs ?? []), '--join', options.join.join(',')],
  };
}
