import type { ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensureClusterCredentials, serviceAccountIssuer } from './cluster-credentials.ts';
import type { CertificateAndKey } from '../certificates/index.ts';
import { renderKubeconfig } from './kubeconfig.ts';
import { spawnReplica, type ReplicaOutput, type ReplicaSpec } from './replica-process.ts';
import { PortsInUseError, portsInUse } from './ports-in-use.ts';
import { waitReady } from './wait-ready.ts';
import { ensureClusterPki } from '../certificates/index.ts';

/** How to lay out a local cluster of replica processes on one host. */
export interface LocalClusterOptions {
  readonly dataDir: string;
  readonly host: string;
  /** One API port and one peer port per replica, in replica order. */
  readonly apiPorts: readonly number[];
  readonly peerPorts: readonly number[];
  readonly kubeconfigPath: string;
  readonly output: ReplicaOutput;
  readonly readyTimeoutMs: number;
  /** Extra flags for every replica (e.g. a faster tick in tests). */
  readonly extraArgs?: readonly string[];
  /** Flags of one replica only, after `extraArgs` (e.g. its own --audit-log-path). */
  readonly replicaArgs?: (name: string) => readonly string[];
  /**
   * Replica `from`'s --peers entry for replica `to` (default: `to`'s real peer address). Chaos tests
   * route each directed peer link through a fault-injecting proxy with it; listen addresses stay real.
   */
  readonly peerAddressFor?: (from: string, to: string) => string;
}

/** A replica of a running local cluster. */
export interface LocalReplica {
  readonly spec: ReplicaSpec;
  readonly apiUrl: string;
  process: ChildProcess | null;
}

/**
 * A running local cluster: N replica processes sharing one CA and admin token, and a kubeconfig
 * with a context per replica. `stop` kills every process it started, by pid.
 */
export interface LocalCluster {
  readonly replicas: readonly LocalReplica[];
  readonly caPem: string;
  /** The static admin bearer token (--token-auth-file: orch-admin in system:masters). */
  readonly adminToken: string;
  /** The admin's client certificate (CN orch-admin, O system:masters), the kubeconfig's user. */
  readonly adminClient: CertificateAndKey;
  /** The service-account signing key file every replica shares, and the issuer it signs as. */
  readonly serviceAccount: { readonly signingKeyFile: string; readonly keyFile: string; readonly issuer: string };
  readonly kubeconfigPath: string;
  /** Sends `signal` to one replica (SIGKILL, SIGSTOP, SIGCONT, SIGTERM). */
  signal(name: string, signal: NodeJS.Signals): void;
  /** Starts a replica again after it was killed, with the same data. */
  restart(name: string): void;
  /** Waits for the given replicas (default all running ones) to answer /readyz. */
  waitReady(names?: readonly string[], timeoutMs?: number): Promise<void>;
  /** Stops every replica: SIGTERM, then SIGKILL for those still running after `graceMs` (default 0). */
  stop(graceMs?: number): Promise<void>;
}

/** The replica names of a local cluster: orch-1, orch-2, ... */
export function replicaNames(count: number): string[] {
  return Array.from({ length: count }, (_, i) => `orch-${i + 1}`);
}

/**
 * Creates (or reuses) the PKI, the shared credentials (admin client certificate, token file,
 * service-account keys) and the kubeconfig under `dataDir`, then starts every replica.
 */
export async function startLocalCluster(options: LocalClusterOptions): Promise<LocalCluster> {
  const names = replicaNames(options.apiPorts.length);
  if (options.peerPorts.length !== names.length) throw new Error('one peer port per API port is needed');
  // Before anything is written: a replica that cannot listen would exit, and the first probes of a
  // start on another cluster's ports (with the same CA) would find that cluster ready.
  const refused = await portsInUse(options.host, [...options.apiPorts, ...options.peerPorts]);
  if (refused.length > 0) throw new PortsInUseError(options.host, refused);
  mkdirSync(options.dataDir, { recursive: true });
  const pkiDir = join(options.dataDir, 'pki');
  const pki = await ensureClusterPki(pkiDir, names);
  const credentials = await ensureClusterCredentials(options.dataDir, pki);
  const adminToken = credentials.adminToken;
  // Client certificates come from the cluster CA (the admin's) and from the CSR signers' CA.
  const clientCaFile = join(pkiDir, 'client-ca.crt');
  writeFileSync(clientCaFile, `${pki.ca.cert.trimEnd()}\n${pki.signingCa.cert}`);
  const authentication = {
    clientCaFile,
    tokenAuthFile: credentials.tokenAuthFile,
    serviceAccountKeyFile: credentials.serviceAccountKeyFile,
    serviceAccountSigningKeyFile: credentials.serviceAccountSigningKeyFile,
    serviceAccountIssuer,
  };
  const peers = Object.fromEntries(names.map((n, i) => [n, `${options.host}:${options.peerPorts[i]}`]));
  const replicas: LocalReplica[] = names.map((name, i) => {
    const apiAddress = `${options.host}:${options.apiPorts[i]}`;
    const spec: ReplicaSpec = {
      name,
      dataDir: join(options.dataDir, name),
      pkiDir,
      authentication,
      apiAddress,
      peerAddress: peers[name] ?? '',
      peers: peersSeenBy(name, peers, options.peerAddressFor),
      ...(options.extraArgs || options.replicaArgs ? { extraArgs: [...(options.extraArgs ?? []), ...(options.replicaArgs?.(name) ?? [])] } : {}),
    };
    return { spec, apiUrl: `https://${apiAddress}`, process: null };
  });
  writeFileSync(
    options.kubeconfigPath,
    renderKubeconfig({ replicas: replicas.map((r) => ({ name: r.spec.name, server: r.apiUrl })), caPem: pki.ca.cert, adminClient: credentials.adminClient }),
    { mode: 0o600 },
  );
  const byName = (name: string): LocalReplica => {
    const replica = replicas.find((r) => r.spec.name === name);
    if (replica === undefined) throw new Error(`no replica named ${name}`);
    return replica;
  };
  // Replicas that exited on their own while the cluster was starting, and how.
  const exitedAtStart: string[] = [];
  let starting = true;
  const start = (replica: LocalReplica): void => {
    const child = spawnReplica(replica.spec, options.output);
    replica.process = child;
    child.on('exit', () => {
      if (replica.process === child) replica.process = null;
    });
    // 'close' comes after the output is drained: the error of a failed start follows the replica's last words.
    child.on('close', (code, signal) => {
      if (starting) exitedAtStart.push(`${replica.spec.name} (${signal ?? `exit code ${code}`})`);
    });
  };
  const cluster: LocalCluster = {
    replicas,
    caPem: pki.ca.cert,
    adminToken,
    adminClient: credentials.adminClient,
    serviceAccount: { signingKeyFile: credentials.serviceAccountSigningKeyFile, keyFile: credentials.serviceAccountKeyFile, issuer: serviceAccountIssuer },
    kubeconfigPath: options.kubeconfigPath,
    signal(name, signal) {
      byName(name).process?.kill(signal);
    },
    restart(name) {
      const replica = byName(name);
      if (replica.process !== null) throw new Error(`replica ${name} is still running`);
      start(replica);
    },
    async waitReady(names, timeoutMs = options.readyTimeoutMs) {
      const urls = (names ?? replicas.filter((r) => r.process !== null).map((r) => r.spec.name)).map((n) => byName(n).apiUrl);
      await waitReady(urls, pki.ca.cert, timeoutMs);
    },
    async stop(graceMs = 0) {
      await Promise.all(replicas.map((r) => stopReplica(r, graceMs)));
    },
  };
  for (const replica of replicas) start(replica);
  // Without this, a cluster whose replicas all failed would wait out the whole timeout.
  const givenUp = (): string | null => exitedAtStart.length === 0 ? null : `replica ${exitedAtStart.join(', ')} exited before the cluster was ready (${exitedAtStart.length === 1 ? 'its' : 'their'} output says why)`;
  try {
    await waitReady(replicas.map((r) => r.apiUrl), pki.ca.cert, options.readyTimeoutMs, givenUp);
  } catch (error) {
    await cluster.stop();
    throw error;
  } finally {
    starting = false;
  }
  return cluster;
}

/** The --peers map of replica `from`: real addresses, or those `peerAddressFor` gives for other replicas. */
function peersSeenBy(from: string, peers: Readonly<Record<string, string>>, peerAddressFor: LocalClusterOptions['peerAddressFor']): Record<string, string> {
  if (peerAddressFor === undefined) return { ...peers };
  return Object.fromEntries(Object.entries(peers).map(([to, address]) => [to, to === from ? address : peerAddressFor(from, to)]));
}

/** Stops a replica process by pid: SIGTERM first when `graceMs` > 0, SIGKILL after it; waits for the exit. */
export async function stopReplica(replica: LocalReplica, graceMs: number): Promise<void> {
  const child = replica.process;
  if (child === null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  if (graceMs > 0) {
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    await exited;
    clearTimeout(timer);
    return;
  }
  child.kill('SIGKILL');
  await exited;
}
