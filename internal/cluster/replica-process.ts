import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { entryPointArgs } from './build-layout.ts';

/** The flags of one replica process (see cmd/orch-apiserver.ts). */
export interface ReplicaSpec {
  readonly name: string;
  readonly dataDir: string;
  readonly pkiDir: string;
  /** The authentication flags every replica of the cluster shares (cluster-credentials.ts). */
  readonly authentication: ReplicaAuthenticationFiles;
  /** host:port of the HTTPS API. */
  readonly apiAddress: string;
  /** host:port of the Raft peer transport. */
  readonly peerAddress: string;
  /** name -> host:port of every replica's peer transport, itself included. */
  readonly peers: Readonly<Record<string, string>>;
  /** --shutdown-delay-duration (default 0s: nothing balances load over a local cluster). */
  readonly shutdownDelay?: string;
  readonly extraArgs?: readonly string[];
}

/** The files of a cluster's authentication flags. */
export interface ReplicaAuthenticationFiles {
  /** --client-ca-file: the cluster CA, which signed the admin's client certificate, and the CSR signers' CA. */
  readonly clientCaFile: string;
  /** --token-auth-file: the static admin token (none on a host: its admin has a client certificate). */
  readonly tokenAuthFile?: string;
  readonly serviceAccountKeyFile: string;
  readonly serviceAccountSigningKeyFile: string;
  readonly serviceAccountIssuer: string;
}

/** Hears each line a replica writes, without its line break. */
export interface ReplicaLineSink {
  readonly onLine: (replica: string, stream: 'stdout' | 'stderr', line: string) => void;
}

/**
 * How a replica's output is shown: prefixed with its name on our stdout (for a person reading a
 * test's output), dropped, or handed line by line to a sink (cmd/orch-cluster forwards the JSON
 * lines as they are; a test reads them).
 */
export type ReplicaOutput = 'prefixed' | 'ignore' | ReplicaLineSink;

/**
 * The flags of orch-apiserver that start the replica `spec`, without the node executable and entry
 * point: the one command line of a replica, which the e2e tests and `make run` start and
 * deploy/systemd/orch-apiserver.service runs on a host (test/unit/deploy/unit-command-line.test.ts
 * holds the two equal).
 */
export function replicaFlags(spec: ReplicaSpec): string[] {
  const peers = Object.entries(spec.peers).map(([name, address]) => `${name}=${address}`).join(',');
  const { authentication } = spec;
  return [
    '--name', spec.name,
    '--data-dir', spec.dataDir,
    '--pki-dir', spec.pkiDir,
    '--client-ca-file', authentication.clientCaFile,
    // A static admin token: local clusters' kubeconfigs and tests; a host's admin uses its client certificate.
    ...(authentication.tokenAuthFile === undefined ? [] : ['--token-auth-file', authentication.tokenAuthFile]),
    '--service-account-key-file', authentication.serviceAccountKeyFile,
    '--service-account-signing-key-file', authentication.serviceAccountSigningKeyFile,
    '--service-account-issuer', authentication.serviceAccountIssuer,
    '--advertise-address', spec.apiAddress,
    '--peer-address', spec.peerAddress,
    '--peers', peers,
    // How long /readyz fails before the replica stops: a load balancer's time to stop sending to it.
    '--shutdown-delay-duration', spec.shutdownDelay ?? '0s',
    // New machines join with bootstrap tokens (docs/joining.md), as on a kubeadm cluster.
    '--enable-bootstrap-token-auth',
    '--controllers=*,bootstrapsigner,tokencleaner',
    ...(spec.extraArgs ?? []),
  ];
}

/**
 * Node flags for every replica process, from ORCH_REPLICA_NODE_ARGS (space-separated), for
 * profiling (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof"): NODE_OPTIONS refuses --cpu-prof.
 */
export function replicaNodeArgs(): string[] {
  return process.env['ORCH_REPLICA_NODE_ARGS']?.split(' ').filter(Boolean) ?? [];
}

/** The node arguments that start the replica `spec`: node's own, the entry point of the running build, then replicaFlags. */
export function replicaArgs(spec: ReplicaSpec): string[] {
  return [
    ...replicaNodeArgs(),
    ...entryPointArgs('cmd/orch-apiserver.ts'),
    ...replicaFlags(spec),
  ];
}

/** Starts one replica as its own OS process. The caller owns the process and must kill it. */
export function spawnReplica(spec: ReplicaSpec, output: ReplicaOutput): ChildProcess {
  const child = spawn(process.execPath, replicaArgs(spec), {
    stdio: ['ignore', output === 'ignore' ? 'ignore' : 'pipe', output === 'ignore' ? 'ignore' : 'pipe'],
    env: process.env,
  });
  if (output === 'prefixed') {
    for (const stream of [child.stdout, child.stderr]) {
      if (stream === null) continue;
      createInterface({ input: stream }).on('line', (line) => process.stdout.write(`[${spec.name}] ${line}\n`));
    }
  } else if (output !== 'ignore') {
    for (const [name, stream] of [['stdout', child.stdout], ['stderr', child.stderr]] as const) {
      if (stream === null) continue;
      createInterface({ input: stream }).on('line', (line) => output.onLine(spec.name, name, line));
    }
  }
  return child;
}
