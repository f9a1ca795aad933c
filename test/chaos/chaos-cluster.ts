// A local cluster of replica processes whose peer links each pass through a LinkProxy, with the
// operations the nemesis needs: kill, pause, resume, restart, partitions and heal, leader lookup.
// Every process and proxy it starts is ended by `close()`, by pid.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { replicaNames, startLocalCluster, type LocalCluster } from '../../internal/cluster/local-cluster.ts';
import { fastRaftArgs } from '../support/cluster-fixture.ts';
import { freePorts } from '../support/free-ports.ts';
import { TestApiClient } from '../support/api-client.ts';
import { LinkProxy } from './link-proxy.ts';

/**
 * Far below the production interval, so that snapshots, compaction and catch-up from a snapshot
 * happen many times under faults in every run.
 */
const chaosSnapshotEveryEntries = 2_000;

/** What a replica is going through. */
export type ReplicaCondition = 'up' | 'killed' | 'paused';

/** A directed peer link: `from` dials `to`. */
export interface Link {
  readonly from: string;
  readonly to: string;
}

/** Options of `startChaosCluster`. */
export interface ChaosClusterOptions {
  readonly replicas?: number;
  /** Environment for the replica processes on top of ours (e.g. ORCH_TESTING_PLANTED_BUG). */
  readonly env?: Readonly<Record<string, string>>;
  /** Show replica logs on our stdout. */
  readonly showLogs?: boolean;
}

/** A running chaos cluster. */
export interface ChaosCluster {
  readonly names: readonly string[];
  readonly cluster: LocalCluster;
  readonly apiUrls: ReadonlyMap<string, string>;
  readonly caPem: string;
  readonly token: string;
  condition(name: string): ReplicaCondition;
  /** SIGKILL and wait for the exit. */
  kill(name: string): Promise<void>;
  /** SIGTERM (graceful: hands leadership off) and wait for the exit. */
  terminate(name: string): Promise<void>;
  pause(name: string): void;
  resume(name: string): void;
  /** Starts a killed replica again and waits (bounded) until it is ready. */
  restart(name: string, readyTimeoutMs?: number): Promise<void>;
  cut(links: readonly Link[], mode: 'drop' | 'blackhole'): void;
  /** Every link of `name`, both directions. */
  linksOf(name: string): Link[];
  healAll(): void;
  /** Names of the replicas whose peer links are all open. */
  connected(): string[];
  /** The replica whose /metrics says it leads (among running, unpaused ones), or null. */
  leader(): Promise<string | null>;
  close(): Promise<void>;
}

/** Starts the proxies, then the replicas wired through them, on ports chosen at run time. */
export async function startChaosCluster(options: ChaosClusterOptions = {}): Promise<ChaosCluster> {
  const names = replicaNames(options.replicas ?? 3);
  const ports = await freePorts(names.length * 2);
  const peerPorts = ports.slice(names.length);
  const proxies = new Map<string, LinkProxy>();
  const linkKey = (from: string, to: string): string => `${from}->${to}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'orch-chaos-'));
  const savedEnv = { ...process.env };
  let cluster: LocalCluster | undefined;
  try {
    for (const from of names) {
      for (const [j, to] of names.entries()) if (from !== to) proxies.set(linkKey(from, to), await LinkProxy.start(`127.0.0.1:${peerPorts[j]}`));
    }
    // spawnReplica passes our environment on; the planted bug must reach only the replicas we start here.
    Object.assign(process.env, options.env ?? {});
    cluster = await startLocalCluster({
      dataDir,
      host: '127.0.0.1',
      apiPorts: ports.slice(0, names.length),
      peerPorts,
      kubeconfigPath: join(dataDir, 'kubeconfig'),
      output: options.showLogs === true ? 'prefixed' : 'ignore',
      readyTimeoutMs: 90_000,
      extraArgs: [...fastRaftArgs, '--snapshot-every-entries', String(chaosSnapshotEveryEntries)],
      peerAddressFor: (from, to) => proxies.get(linkKey(from, to))?.address ?? '',
    });
  } catch (error) {
    await Promise.all([...proxies.values()].map((p) => p.close()));
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  } finally {
    restoreEnv(savedEnv);
  }
  return buildChaosCluster({ names, cluster, proxies, dataDir, env: options.env ?? {} });
}

function restoreEnv(saved: NodeJS.ProcessEnv): void {
  for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
  Object.assign(process.env, saved);
}

interface Parts {
  readonly names: readonly string[];
  readonly cluster: LocalCluster;
  readonly proxies: ReadonlyMap<string, LinkProxy>;
  readonly dataDir: string;
  readonly env: Readonly<Record<string, string>>;
}

function buildChaosCluster({ names, cluster, proxies, dataDir, env }: Parts): ChaosCluster {
  const conditions = new Map<string, ReplicaCondition>(names.map((n) => [n, 'up']));
  const apiUrls = new Map(cluster.replicas.map((r) => [r.spec.name, r.apiUrl]));
  const clients = new Map(cluster.replicas.map((r) => [r.spec.name, new TestApiClient(r.apiUrl, cluster.caPem, cluster.adminToken)]));
  const processOf = (name: string) => cluster.replicas.find((r) => r.spec.name === name)?.process ?? null;
  const stopWith = async (name: string, signal: NodeJS.Signals): Promise<void> => {
    const child = processOf(name);
    if (child === null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    if (conditions.get(name) === 'paused') child.kill('SIGCONT');
    cluster.signal(name, signal);
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    await exited;
    clearTimeout(timer);
    conditions.set(name, 'killed');
  };
  const linkOf = (link: Link): LinkProxy => {
    const proxy = proxies.get(`${link.from}->${link.to}`);
    if (proxy === undefined) throw new Error(`assert: no link ${link.from}->${link.to}`);
    return proxy;
  };
  // Backstop: if our process exits without close() (a crash, a test runner timeout), no replica outlives it.
  const killOnExit = (): void => {
    for (const r of cluster.replicas) if (r.process !== null) r.process.kill('SIGKILL');
  };
  process.once('exit', killOnExit);
  let closing: Promise<void> | undefined;
  const linksOf = (name: string): Link[] => names.filter((n) => n !== name).flatMap((n) => [{ from: name, to: n }, { from: n, to: name }]);
  return {
    names,
    cluster,
    apiUrls,
    caPem: cluster.caPem,
    token: cluster.adminToken,
    condition: (name) => conditions.get(name) ?? 'killed',
    kill: (name) => stopWith(name, 'SIGKILL'),
    terminate: (name) => stopWith(name, 'SIGTERM'),
    pause(name) {
      cluster.signal(name, 'SIGSTOP');
      conditions.set(name, 'paused');
    },
    resume(name) {
      cluster.signal(name, 'SIGCONT');
      if (conditions.get(name) === 'paused') conditions.set(name, 'up');
    },
    async restart(name, readyTimeoutMs = 60_000) {
      const saved = { ...process.env };
      Object.assign(process.env, env);
      try {
        cluster.restart(name);
      } finally {
        restoreEnv(saved);
      }
      conditions.set(name, 'up');
      await cluster.waitReady([name], readyTimeoutMs);
    },
    cut(links, mode) {
      for (const link of links) linkOf(link).cut(mode);
    },
    linksOf,
    healAll() {
      for (const proxy of proxies.values()) proxy.heal();
    },
    connected: () => names.filter((n) => linksOf(n).every((l) => linkOf(l).linkMode === 'open')),
    async leader() {
      for (const name of names) {
        if (conditions.get(name) !== 'up' || processOf(name) === null) continue;
        const res = await clients.get(name)?.call('GET', '/metrics').catch(() => null);
        if (res?.status === 200 && /^orch_raft_is_leader 1$/m.test(res.text)) return name;
      }
      return null;
    },
    close() {
      closing ??= (async () => {
        process.removeListener('exit', killOnExit);
        for (const name of names) if (conditions.get(name) === 'paused') processOf(name)?.kill('SIGCONT');
        await Promise.all([...clients.values()].map((c) => c.close().catch(() => undefined)));
        await cluster.stop();
        await Promise.all([...proxies.values()].map((p) => p.close()));
        rmSync(dataDir, { recursive: true, force: true });
      })();
      return closing;
    },
  };
}

/** Waits until `check` holds, polling every `intervalMs`, for at most `timeoutMs`; returns whether it held. */
export async function waitUntil(check: () => boolean | Promise<boolean>, timeoutMs: number, intervalMs = 100): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await sleep(intervalMs);
  }
  return check();
}
