import { Registry, collectDefaultMetrics } from 'prom-client';
import type { FlowControlOptions } from '../apiserver/flow-control-setup.ts';
import type { RaftNode } from '../../raft/node.ts';
import { createApiServer, type ApiServer } from '../apiserver/index.ts';
import { buildAuthenticator, defaultAuthenticationOptions, systemMasters, type Authentication, type AuthenticationOptions, type StaticToken } from '../authn/index.ts';
import { storeObjectGetter } from './service-account-objects.ts';
import { storeBootstrapTokenGetter } from './bootstrap-token-secrets.ts';
import { createControllers } from '../controllers/controllers.ts';
import { ControllerManager } from '../controllers/manager.ts';
import type { ControllerSelection } from '../controllers/controller-selection.ts';
import { ensureClusterPki } from '../certificates/index.ts';
import type { ServiceNetwork } from '../registry/core/service/network.ts';
import { openRaftStorage } from '../storage/raft-storage.ts';
import { StorageError } from '../storage/storage.ts';
import type { ReplicatedStorage } from '../storage/replicated-storage.ts';
import { registerRaftTimings, registerReplicaGauges } from './replica-metrics.ts';
import type { AuthorizationFlags } from './authorization-flags.ts';
import type { AdmissionFlags } from './admission-flags.ts';
import { defaultSigningFlags, loadSigningAuthorities, type SigningFlags } from './signing-flags.ts';
import type { ServingOptions } from '../registry/resource-registry.ts';
import { loadWebhookKubeconfig } from '../authz/webhook/webhook-config.ts';
import { leadershipHandOffMs, quorumCheckTimeoutMs } from './limits.ts';
import { startAudit } from '../audit/start-audit.ts';
import type { Auditor } from '../audit/auditor.ts';
import type { AuditFlags } from './audit-flags.ts';
import type { Logger } from '../logging/logger.ts';
import { startTracing } from '../tracing/start-tracing.ts';
import type { TracingSettings } from '../tracing/tracing-config.ts';
import { controllerActionLogger, logLeaderChanges, logRaftEvent } from './replica-log.ts';
import { ReplicaMaintenance } from './maintenance-backend.ts';

/** Everything one replica needs to start: identity, where its data lives, where it listens. */
export interface ReplicaOptions {
  readonly name: string;
  readonly dataDir: string;
  /** Directory of the cluster CA and peer certificates (created when missing). */
  readonly pkiDir: string;
  /** A bearer token of `orch-admin` in `system:masters` (--admin-token-file), one more token-file entry. */
  readonly adminToken?: string;
  /** The authentication flags (default: kube-apiserver's defaults, anonymous on). */
  readonly authentication?: AuthenticationOptions;
  readonly api: { readonly host: string; readonly port: number };
  /** host:port the Raft peer server listens on. */
  readonly peerListen: string;
  /** name -> host:port of every replica's peer transport. */
  readonly peers: Readonly<Record<string, string>>;
  /** --join: members' peer addresses to ask for membership when the data directory is empty (raft/join.ts). */
  readonly join?: readonly string[];
  /** --initial-cluster-state: `existing` starts an empty data directory as a member-to-be (default `new`: founds `peers`). */
  readonly initialClusterState?: 'new' | 'existing';
  readonly apiDomain: string;
  readonly retentionMs: number;
  readonly tickMs?: number;
  readonly electionTicks?: number;
  readonly snapshotEveryEntries?: number;
  readonly snapshotEveryBytes?: number;
  readonly snapshotCatchUpEntries?: number;
  /** Where Services get cluster IPs and node ports (default 10.96.0.0/12 and 30000-32767). */
  readonly serviceNetwork?: ServiceNetwork;
  /** --authorization-mode and the webhook's flags (default: RBAC). */
  readonly authorization?: AuthorizationFlags;
  /** The admission plugins and their configuration (default: kube-apiserver's default plugins). */
  readonly admission?: AdmissionFlags;
  /** --runtime-config and --feature-gates (default: kube-apiserver 1.28's served group versions). */
  readonly serving?: ServingOptions;
  /** --controllers: which controllers run while this replica leads (default `*`). */
  readonly controllers?: ControllerSelection;
  /** --cluster-signing-*: the certificate signers' CAs and duration (default: the cluster CA, one year). */
  readonly signing?: SigningFlags;
  /** --audit-*: the policy and backends (default: no audit). */
  readonly audit?: AuditFlags;
  /** --enable-priority-and-fairness and the in-flight limits (default: APF on, 400 + 200 seats). */
  readonly flowControl?: FlowControlOptions;
  /** TEST ONLY planted bug (chaos checkers): consistent reads skip ReadIndex. Never set in production. */
  readonly testingServeConsistentReadsLocally?: boolean;
  /**
   * Called once this replica applied its own removal from the group, or the group refused its
   * join for good: the process should stop (it will never hear from the group again).
   */
  readonly onRemoved?: () => void;
  /** Where the replica logs (JSON lines, --v): its own events, its requests, its Raft node and controllers. */
  readonly logger: Logger;
  /** --tracing-config-file's settings: spans exported over OTLP HTTP. Absent or null: no tracer provider. */
  readonly tracing?: TracingSettings | null;
}

/** A running replica. */
export interface Replica {
  readonly raft: RaftNode;
  readonly storage: ReplicatedStorage;
  readonly api: ApiServer;
  /**
   * Who requests are, as the flags say: the chain the API server runs, `tokenAuthenticator`
   * (TokenReview) and `tokenIssuer` (TokenRequest; set with --service-account-signing-key-file).
   * The API server gets the same object (`ApiServerOptions.authentication`) before it builds its stores.
   */
  readonly authn: Authentication;
  /** Stops serving, hands leadership off if leading, and closes the store. */
  stop(): Promise<void>;
}

/**
 * Starts one replica: the store's state machine, the Raft node applying to it over mutual TLS,
 * the replicated Storage, the HTTPS API with health checks and gauges, and the controllers
 * (running while this replica leads).
 */
export async function startReplica(options: ReplicaOptions): Promise<Replica> {
  const { logger } = options;
  const log = logger.legacy;
  const pki = await ensureClusterPki(options.pkiDir, [options.name]);
  // The signers' CAs are read now: a bad file stops the replica before it serves.
  const signing = options.signing ?? defaultSigningFlags();
  const csrSigning = { authorities: await loadSigningAuthorities(signing, pki), durationMs: signing.durationMs };
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
      join: options.initialClusterState === 'existing' || (options.join?.length ?? 0) > 0,
      ...(options.join === undefined || options.join.length === 0 ? {} : { joinSeeds: options.join, onJoinProgress: (message: string, fields?: Record<string, unknown>) => logger.info(`raft join: ${message}`, fields ?? {}) }),
      listen: options.peerListen,
      tls: { ca: pki.ca.cert, cert: identity.cert, key: identity.key },
      ...(options.tickMs !== undefined ? { tickMs: options.tickMs } : {}),
      ...(options.electionTicks !== undefined ? { electionTicks: options.electionTicks } : {}),
      ...(options.snapshotEveryEntries !== undefined ? { snapshotEveryEntries: options.snapshotEveryEntries } : {}),
      ...(options.snapshotEveryBytes !== undefined ? { snapshotEveryBytes: options.snapshotEveryBytes } : {}),
      ...(options.snapshotCatchUpEntries !== undefined ? { snapshotCatchUpEntries: options.snapshotCatchUpEntries } : {}),
      onError: (err) => log('raft background error', err),
      onEvent: (event) => {
        logRaftEvent(logger, event);
        if (event.type === 'removed' || event.type === 'join-refused') setImmediate(() => options.onRemoved?.());
      },
      timings: registerRaftTimings(metricsRegistry),
    },
  });
  logLeaderChanges(logger, raft);
  // The tracer provider is registered before the API serves its first request.
  const tracing = options.tracing ? startTracing(options.tracing, options.name, (message, fields) => logger.warn(message, fields)) : null;
  collectDefaultMetrics({ register: metricsRegistry });
  registerReplicaGauges(metricsRegistry, raft, storage);
  let api: ApiServer | undefined;
  let authn: Authentication;
  try {
    authn = await buildReplicaAuthentication(options, () => api);
  } catch (error) {
    await closeStore();
    throw error;
  }
  void authn.start();
  let auditor: Auditor | undefined;
  try {
    for (const warning of options.audit?.warnings ?? []) logger.warn(warning);
    // The log file is made now: a path that cannot be written stops the replica before it serves.
    auditor = startAudit(options.audit?.options, metricsRegistry, log);
    api = await createApiServer({
      storage,
      tls: { cert: identity.cert, key: identity.key, ca: pki.ca.cert },
      authentication: authn,
      apiDomain: options.apiDomain,
      healthChecks: { 'raft-quorum': () => confirmQuorum(raft) },
      metricsRegistry,
      listen: options.api,
      bootstrapNamespaces: ['default', 'orch-system', 'orch-public', 'kube-system', 'kube-public', 'kube-node-lease'],
      ...(options.serviceNetwork ? { serviceNetwork: options.serviceNetwork } : {}),
      kubernetesService: { advertiseHost: options.api.host },
      ...(options.authorization ? { authorization: authorizationOptions(options.authorization, options.apiDomain) } : {}),
      ...(options.admission ? { admission: options.admission } : {}),
      ...(options.serving ? { serving: options.serving } : {}),
      ...(options.flowControl ? { flowControl: options.flowControl } : {}),
      log,
      requestLogger: logger,
      ...(auditor === undefined ? {} : { audit: auditor }),
      // /orch/v1/: status, membership, leadership and snapshots (docs/operations.md).
      maintenance: new ReplicaMaintenance({ raft, storage, dataDir: options.dataDir }),
    });
  } catch (error) {
    await auditor?.shutdown();
    authn.close();
    await closeStore();
    throw error;
  }
  const served = api;
  // Controllers act through the API's own stores, on the Raft leader only, each as its own service
  // account authorized by the API's authorizer, and audited by the API's audit (when on).
  const controllers = new ControllerManager({
    // kube-root-ca.crt publishes the CA that signs the API's serving certificate (the cluster CA).
    controllers: createControllers({ registry: served.registry, stores: served.stores, authorizer: served.authorization.authorizer, log, logAction: controllerActionLogger(logger), ...(auditor === undefined ? {} : { audit: auditor }) }, {
      rootCaBundle: pki.ca.cert,
      // cluster-info: this replica's API URL (written once, by the first leader) and the cluster CA.
      clusterInfo: { apiServerUrl: apiServerUrl(options.api.host, served.port), caBundle: pki.ca.cert, bootstrapTokenAuth: options.authentication?.enableBootstrapTokenAuth === true },
      csrSigning,
      ...(options.controllers === undefined ? {} : { selection: options.controllers }),
      ...(authn.tokenIssuer === undefined ? {} : { issueLegacyToken: (account, secret) => authn.tokenIssuer?.issueLegacyToken(account, secret) ?? '' }),
    }),
    isLeader: () => raft.isLeader(),
    log,
    metricsRegistry,
  });
  // Once RBAC holds the controllers' roles: before, their first passes would only be refused.
  let stopped = false;
  void served.authorizationReady
    .catch((err: unknown) => log('controllers start before RBAC is ready', err))
    .then(() => {
      if (!stopped) controllers.start();
    });
  return {
    raft,
    storage,
    api: served,
    authn,
    async stop() {
      stopped = true;
      await controllers.stop();
      await served.close();
      await auditor?.shutdown();
      authn.close();
      await raft.stop({ handOffMs: leadershipHandOffMs });
      await closeStore();
      await tracing?.shutdown();
    },
  };
}

/**
 * The authentication chain from the flags, with --admin-token-file's token as one more token-file
 * entry and the service-account objects read through the API server's stores once it runs.
 */
function buildReplicaAuthentication(options: ReplicaOptions, api: () => ApiServer | undefined): Promise<Authentication> {
  const flags = options.authentication ?? defaultAuthenticationOptions();
  const admin: StaticToken[] = options.adminToken === undefined ? [] : [{ token: options.adminToken, user: { username: 'orch-admin', uid: '', groups: [systemMasters], extra: {} } }];
  return buildAuthenticator({ ...flags, staticTokens: [...(flags.staticTokens ?? []), ...admin] }, {
    serviceAccountGetter: storeObjectGetter(api),
    bootstrapTokenGetter: storeBootstrapTokenGetter(api),
    warn: (message) => options.logger.warn(`authentication: ${message}`),
  });
}

/** The URL clients reach the API at: https, the listen host (IPv6 in brackets) and the bound port. */
function apiServerUrl(host: string, port: number): string {
  return `https://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

/** The API server's authorization from the flags: the modes, and the webhook's connection read from its kubeconfig file. */
function authorizationOptions(flags: AuthorizationFlags, apiDomain: string) {
  const webhook = flags.webhook;
  if (webhook === undefined) return { modes: flags.modes };
  return {
    modes: flags.modes,
    webhook: { connection: loadWebhookKubeconfig(webhook.configFile), version: webhook.version, authorizedTtlMs: webhook.authorizedTtlMs, unauthorizedTtlMs: webhook.unauthorizedTtlMs, apiDomain },
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
