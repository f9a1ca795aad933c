import { Registry, collectDefaultMetrics } from 'prom-client';
import type { RaftNode } from '../../raft/node.ts';
import { createApiServer, type ApiServer } from '../apiserver/index.ts';
import { createControllers } from '../controllers/controllers.ts';
import { ControllerManager } from '../controllers/manager.ts';
import { ensureClusterPki } from '../certificates/index.ts';
import type { ServiceNetwork } from '../registry/core/service/network.ts';
import { openRaftStorage } from '../storage/raft-storage.ts';
import { StorageError } from '../storage/storage.ts';
import type { ReplicatedStorage } from '../storage/replicated-storage.ts';
import { registerRaftTimings, registerReplicaGauges } from './replica-metrics.ts';
import { leadershipHandOffMs, quorumCheckTimeoutMs } from './limits.ts';

/** Everything one replica needs to start: identity, where its data lives, where it listens. */
export interface ReplicaOptions {
  readonly name: string;
  readonly dataDir: string;
  /** Directory of the cluster CA and peer certificates (created when missing). */
  readonly pkiDir: string;
  readonly adminToken: string;
  readonly api: { readonly host: string; readonly port: number };
  /** host:port the Raft peer server listens on. */
  readonly peerListen: string;
  /** name -> host:port of every replica's peer transport. */
  readonly peers: Readonly<Record<string, string>>;
  readonly apiDomain: string;
  readonly retentionMs: number;
  readonly tickMs?: number;
  readonly electionTicks?: number;
  readonly snapshotEveryEntries?: number;
  readonly snapshotEveryBytes?: number;
  readonly snapshotCatchUpEntries?: number;
  /** Where Services get cluster IPs and node ports (default 10.96.0.0/12 and 30000-32767). */
  readonly serviceNetwork?: ServiceNetwork;
  /** TEST ONLY planted bug (chaos checkers): consistent reads skip ReadIndex. Never set in production. */
  readonly testingServeConsistentReadsLocally?: boolean;
  readonly log: (message: string, err?: unknown) => void;
}

/** A running replica. */
export interface Replica {
  readonly raft: RaftNode;
  readonly storage: ReplicatedStorage;
  readonly api: ApiServer;
  /** Stops serving, hands leadership off if leading, and closes the store. */
  stop(): Promise<void>;
}

/**
 * Starts one replica: the store's state machine, the Raft node applying to it over mutual TLS,
 * the replicated Storage, the HTTPS API with health checks and gauges, and the controllers
 * (running while this replica leads).
 */
export async function startReplica(options: ReplicaOptions): Promise<Replica> {
  const pki = await ensureClusterPki(options.pkiDir, [options.name]);
  const identity = pki.replicas[options.name];
  if (identity === undefined) throw new Error(`assert: no certificate for ${options.name}`);
  const metricsRegistry = new Registry();
  const { storage, node: raft, close: closeStore } = await openRaftStorage({
    dataDir: options.dataDir,
    replicaName: options.name,
    retentionMs: options.retentionMs,
    ...(options.testingServeConsistentReadsLocally === true ? { testingServeConsistentReadsLocally: true } : {}),
    raft: {
      id: options.name,
      peers: options.peers,
      listen: options.peerListen,
      tls: { ca: pki.ca.cert, cert: identity.cert, key: identity.key },
      ...(options.tickMs !== undefined ? { tickMs: options.tickMs } : {}),
      ...(options.electionTicks !== undefined ? { electionTicks: options.electionTicks } : {}),
      ...(options.snapshotEveryEntries !== undefined ? { snapshotEveryEntries: options.snapshotEveryEntries } : {}),
      ...(options.snapshotEveryBytes !== undefined ? { snapshotEveryBytes: options.snapshotEveryBytes } : {}),
      ...(options.snapshotCatchUpEntries !== undefined ? { snapshotCatchUpEntries: options.snapshotCatchUpEntries } : {}),
      onError: (err) => options.log('raft background error', err),
      timings: registerRaftTimings(metricsRegistry),
    },
  });
  collectDefaultMetrics({ register: metricsRegistry });
  registerReplicaGauges(metricsRegistry, raft, storage);
  let api: ApiServer;
  try {
    api = await createApiServer({
      storage,
      tls: { cert: identity.cert, key: identity.key, ca: pki.ca.cert },
      adminToken: options.adminToken,
      apiDomain: options.apiDomain,
      healthChecks: { 'raft-quorum': () => confirmQuorum(raft) },
      metricsRegistry,
      listen: options.api,
      bootstrapNamespaces: ['default', 'orch-system', 'orch-public', 'kube-system', 'kube-public', 'kube-node-lease'],
      ...(options.serviceNetwork ? { serviceNetwork: options.serviceNetwork } : {}),
      kubernetesService: { advertiseHost: options.api.host },
      log: options.log,
    });
  } catch (error) {
    await closeStore();
    throw error;
  }
  // Controllers act through the API's own stores, on the Raft leader only.
  const controllers = new ControllerManager({
    controllers: createControllers({ registry: api.registry, stores: api.stores, log: options.log }),
    isLeader: () => raft.isLeader(),
    log: options.log,
    metricsRegistry,
  });
  controllers.start();
  return {
    raft,
    storage,
    api,
    async stop() {
      await controllers.stop();
      await api.close();
      await raft.stop({ handOffMs: leadershipHandOffMs });
      await closeStore();
    },
  };
}

/** Succeeds only when this replica can confirm the leader's commit index with a quorum (a ReadIndex round). */
async function confirmQuorum(raft: RaftNode): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new StorageError('Unavailable', `no quorum confirmed within ${quorumCheckTimeoutMs} ms`)), quorumCheckTimeoutMs);
  });
  try {
    await Promise.race([raft.readIndex(), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
