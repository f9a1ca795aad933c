import { createSecureServer, type Http2ServerResponse, type Http2Session } from 'node:http2';
import type { Socket } from 'node:net';
import type { Registry } from 'prom-client';
import { buildAuthenticator, defaultAuthenticationOptions, systemMasters, type Authentication } from '../authn/index.ts';
import type { Storage } from '../storage/storage.ts';
import type { GenericStore } from '../registry/generic/store.ts';
import { builtinDeclarations, ResourceRegistry, storeFor, type ServedResource, type ServingOptions } from '../registry/resource-registry.ts';
import { StatusError, unavailable } from '../registry/errors/status-error.ts';
import { namespaceStoresOf } from '../registry/core/namespace-deletion.ts';
import { startCrdServing } from '../registry/apiextensions/crd-serving.ts';
import { EndpointServiceResolver } from '../admission/webhook/index.ts';
import { RegistryObjects } from '../admission/registry-objects.ts';
import { ensureKubernetesService } from '../registry/core/service/kubernetes-service.ts';
import { serviceNetwork, type ServiceNetwork } from '../registry/core/service/network.ts';
import { buildAuthorization, type AuthorizationMode } from '../authz/authorization-modes.ts';
import { RbacIndex } from '../authz/rbac/rbac-index.ts';
import type { WebhookAuthorizerOptions } from '../authz/webhook/webhook-authorizer.ts';
import type { StoreAuthorization } from '../registry/authorization/store-authorization.ts';
import { startRbacPolicy, type RbacPolicy } from '../registry/rbac/rbac-policy.ts';
import { bootstrapDefaultObjects } from './bootstrap-defaults.ts';
import { apiServerStores } from '../controllers/controller-identity.ts';
import { selectPlugins } from '../admission/plugin-selection.ts';
import { startAdmission } from '../admission/start-admission.ts';
import type { HealthCheck } from './health.ts';
import {
  bootstrapAttemptsMax, bootstrapRetryMs, bootstrapWaitMs, closingBodyWaitMs, closingDrainMs, http2StreamsPerConnectionMax, idleConnectionTimeoutMs, requestBodyTimeoutMsDefault, shutdownGraceMs,
  watchStallTimeoutMsDefault,
} from './limits.ts';
import { ApiMetrics } from './metrics.ts';
import { flowControlDefaults, startFlowControl, type FlowControlOptions } from './flow-control-setup.ts';
import { OpenApiDocuments } from './openapi.ts';
import { handleRequest, type HandlerDeps, type RawRequest } from './request-handler.ts';
import { observeRequest } from './request-observer.ts';
import type { Logger } from '../logging/logger.ts';
import type { RawResponse } from './respond.ts';
import type { Auditor } from '../audit/auditor.ts';
import type { MaintenanceBackend } from './maintenance/backend.ts';

/** Options of one API server. */
export interface ApiServerOptions {
  readonly storage: Storage;
  readonly tls: { readonly cert: string; readonly key: string; readonly ca?: string };
  /**
   * Who requests are (internal/authn's chain, built by the replica from its flags). Without it,
   * a chain of `adminToken` (user orch-admin in system:masters) and anonymous requests.
   */
  readonly authentication?: Authentication;
  /** A static bearer token of orch-admin (system:masters); only used when `authentication` is absent. */
  readonly adminToken?: string;
  /** Suffix of the named API groups (`events.<domain>`); default `k8s.io`. */
  readonly apiDomain?: string;
  /** Extra readiness checks (e.g. `raft-quorum`), also run by /healthz. */
  readonly healthChecks?: Readonly<Record<string, HealthCheck>>;
  /** Where metrics go; others may register their own gauges on it. */
  readonly metricsRegistry?: Registry;
  readonly listen: { readonly host: string; readonly port: number };
  /** Namespaces to create at start when missing (errors are logged, not thrown). */
  readonly bootstrapNamespaces?: readonly string[];
  readonly log?: (message: string, err?: unknown) => void;
  /** Where the request log goes (request-observer.ts: every request at --v=3, a 5xx always); none: no request log. */
  readonly requestLogger?: Logger;
  /** How long a request body may take to arrive whole before a 408 (default limits.ts). */
  readonly requestBodyTimeoutMs?: number;
  /** How long a connection may stay without a request or open stream (default limits.ts). */
  readonly idleConnectionTimeoutMs?: number;
  /** How long a watch's client may take no data while events wait before it is dropped (default limits.ts). */
  readonly watchStallTimeoutMs?: number;
  /** Where Services get cluster IPs and node ports (default 10.96.0.0/12 and 30000-32767). */
  readonly serviceNetwork?: ServiceNetwork;
  /**
   * Make the `kubernetes` Service in `default` at start and list this server in its Endpoints at
   * `advertiseHost` and the port it listens on (after the bootstrap namespaces; errors are logged).
   */
  readonly kubernetesService?: { readonly advertiseHost: string };
  /** `--authorization-mode` and the webhook's options (default: RBAC alone). */
  readonly authorization?: { readonly modes?: readonly AuthorizationMode[]; readonly webhook?: WebhookAuthorizerOptions };
  /** The admission plugins in the order they run, and their configurations (default: kube-apiserver's default set). */
  readonly admission?: { readonly plugins: readonly string[]; readonly configurations: ReadonlyMap<string, unknown> };
  /** Which group versions beyond the defaults are served (`--runtime-config`, `--feature-gates`). */
  readonly serving?: ServingOptions;
  /** The audit (`--audit-*`, built by the replica): none, no audit. */
  readonly audit?: Auditor;
  /** The replica's maintenance API under /orch/v1/ (docs/operations.md): none, those paths are 404. */
  readonly maintenance?: MaintenanceBackend;
  /** API Priority and Fairness or the in-flight limits (default: APF on, 400 + 200 seats). */
  readonly flowControl?: FlowControlOptions;
}

/** A running API server. `close` ends watches, stops accepting and closes connections. */
export interface ApiServer {
  readonly port: number;
  /** The resources served (controllers act on the same ones). */
  readonly registry: ResourceRegistry;
  /** The generic store of every served resource, shared with the controllers. */
  readonly stores: ReadonlyMap<ServedResource, GenericStore>;
  /** The authorization the server applies (its chain, and this replica's RBAC index). */
  readonly authorization: StoreAuthorization;
  /** Resolves once the bootstrap policy is in and the RBAC index has synced (controllers are authorized from then on). */
  readonly authorizationReady: Promise<void>;
  /** Starts a graceful shutdown: /readyz fails from now on while requests are still served. */
  beginShutdown(): void;
  close(): Promise<void>;
}

function healthChecks(storage: Storage, extra: Readonly<Record<string, HealthCheck>>, isShuttingDown: () => boolean, policy: RbacPolicy): Map<string, Map<string, HealthCheck>> {
  const ping: HealthCheck = () => undefined;
  const store: HealthCheck = async () => {
    await storage.currentRevision();
  };
  const shutdown: HealthCheck = () => {
    if (isShuttingDown()) throw new Error('the server is shutting down');
  };
  const custom = Object.entries(extra);
  // As kube-apiserver's: ready once the RBAC index holds the store's objects and the bootstrap policy is in.
  const informerSync: HealthCheck = () => {
    if (!policy.informer.synced()) throw new Error('RBAC informers not synced');
  };
  const bootstrapRoles: HealthCheck = () => {
    if (!policy.bootstrapped()) throw new Error('not finished');
  };
  return new Map([
    ['livez', new Map<string, HealthCheck>([['ping', ping]])],
    ['readyz', new Map<string, HealthCheck>([['ping', ping], ['store', store], ...custom, ['informer-sync', informerSync], ['poststarthook/rbac/bootstrap-roles', bootstrapRoles], ['shutdown', shutdown]])],
    ['healthz', new Map<string, HealthCheck>([['ping', ping], ['store', store], ...custom, ['poststarthook/rbac/bootstrap-roles', bootstrapRoles]])],
  ]);
}

/**
 * Closes (GOAWAY) an HTTP/2 connection that has had no open stream for `ms`, as Go's http2 server
 * does with IdleTimeout. A session timeout would not do: it counts frames, and a quiet watch sends none.
 */
function closeWhenIdle(session: Http2Session, ms: number): void {
  let open = 0;
  let timer: NodeJS.Timeout | undefined;
  const arm = (): void => {
    timer = setTimeout(() => session.close(), ms);
    timer.unref();
  };
  session.on('stream', (stream: { once(event: 'close', listener: () => void): unknown }) => {
    open++;
    clearTimeout(timer);
    stream.once('close', () => {
      if (--open === 0 && !session.closed) arm();
    });
  });
  session.once('close', () => clearTimeout(timer));
  arm();
}

/**
 * Creates the bootstrap namespaces, retrying (bounded) while the store is not ready, e.g. before
 * a Raft quorum exists. Stops early when `stopped()` says the server is closing.
 */
async function bootstrap(store: GenericStore, names: readonly string[], stopped: () => boolean, log: HandlerDeps['log']): Promise<void> {
  const pending = new Set(names);
  for (let attempt = 1; pending.size > 0 && !stopped(); attempt++) {
    for (const name of [...pending]) {
      try {
        await store.create(undefined, { metadata: { name } }, { fieldManager: 'orch-apiserver' });
        pending.delete(name);
      } catch (err) {
        if (err instanceof StatusError && err.code === 409) pending.delete(name);
        else if (attempt >= bootstrapAttemptsMax) {
          log(`could not create namespace ${name}`, err);
          return;
        }
      }
    }
    if (pending.size > 0) await new Promise((resolve) => setTimeout(resolve, bootstrapRetryMs));
  }
}

/**
 * Makes the `kubernetes` Service and Endpoints, retrying (bounded) while the store is not ready
 * or the `default` namespace is not there yet. Stops early when `stopped()` says the server is closing.
 */
async function bootstrapKubernetesService(stores: ReadonlyMap<ServedResource, GenericStore>, registry: ResourceRegistry, network: ServiceNetwork, api: { host: string; port: number }, stopped: () => boolean, log: HandlerDeps['log']): Promise<void> {
  const storeOf = (plural: string): GenericStore | undefined => {
    const served = registry.find('', 'v1', plural);
    return served && stores.get(served);
  };
  const services = storeOf('services');
  const endpoints = storeOf('endpoints');
  if (!services || !endpoints) return;
  for (let attempt = 1; !stopped(); attempt++) {
    try {
      await ensureKubernetesService({ services, endpoints }, network, api, log);
      return;
    } catch (err) {
      if (attempt >= bootstrapAttemptsMax) {
        log('could not create the kubernetes Service and Endpoints', err);
        return;
      }
    }
    await new Promise((resolve) => setTimeout(resolve, bootstrapRetryMs));
  }
}

/**
 * The authentication of a server given no chain: the admin token (when there is one) as
 * orch-admin in system:masters, every other request anonymous, as kube-apiserver's defaults are.
 */
async function adminTokenAuthentication(adminToken: string | undefined): Promise<Authentication> {
  const staticTokens = adminToken === undefined ? [] : [{ token: adminToken, user: { username: 'orch-admin', uid: '', groups: [systemMasters], extra: {} } }];
  return buildAuthenticator({ ...defaultAuthenticationOptions(), staticTokens });
}

/** Starts the HTTPS (HTTP/2 with HTTP/1.1 fallback) API server. */
export async function createApiServer(opts: ApiServerOptions): Promise<ApiServer> {
  const registry = new ResourceRegistry(opts.apiDomain ?? 'k8s.io', builtinDeclarations, opts.serving);
  const log = opts.log ?? ((message: string, err?: unknown) => console.error(`apiserver: ${message}`, err ?? ''));
  const network = opts.serviceNetwork ?? serviceNetwork();
  // Before the stores: TokenRequest and TokenReview use its token issuer and token authenticator.
  const authentication = opts.authentication ?? (await adminTokenAuthentication(opts.adminToken));
  // The index is made empty first: the chain reads it, the stores take the chain, the informer fills it from the stores.
  const rbacGroup = `rbac.authorization.${registry.apiDomain}`;
  const index = new RbacIndex(rbacGroup);
  // RBAC allows nothing until the informer, started once the stores exist, has synced the index.
  let rbacSynced = (): boolean => false;
  const chain = buildAuthorization({
    modes: opts.authorization?.modes ?? ['RBAC'], rbacIndex: index, rbacSynced: () => rbacSynced(),
    ...(opts.authorization?.webhook ? { webhook: opts.authorization.webhook } : {}),
  });
  const authorization: StoreAuthorization = { authorizer: chain.authorizer, ruleResolver: chain.ruleResolver, index, rbacGroup };
  const stores = new Map(registry.resources.map((r) => [r, storeFor(opts.storage, r, { serviceNetwork: network, log, authorization, serviceAccountTokens: authentication, registry })] as const));
  let shuttingDown = false;
  const policy = startRbacPolicy({ registry, stores, index, stopped: () => shuttingDown, log });
  // A conversion webhook's service is reached as an admission webhook's is: through its Endpoints.
  const services = new EndpointServiceResolver(new RegistryObjects(registry, stores));
  const customResources = startCrdServing({ registry, stores, storage: opts.storage, resolveService: (ns, name, port) => services.resolve(ns, name, port), log });
  rbacSynced = () => policy.informer.synced();
  // Listeners of requests still running (watches), told when the server closes; each request removes its own.
  const shutdownListeners = new Set<() => void>();
  let inflight = 0;
  /** Set once close() begins: requests that still arrive are refused before any processing. */
  let closing = false;
  const idleWaiters: (() => void)[] = [];
  const namespaceStores = namespaceStoresOf(registry, stores);
  const admission = startAdmission({
    registry, stores, authorizer: chain.authorizer, log,
    ...(opts.metricsRegistry ? { metricsRegistry: opts.metricsRegistry } : {}),
    plugins: opts.admission?.plugins ?? selectPlugins({}), configurations: opts.admission?.configurations ?? new Map(),
  });
  const flowControl = startFlowControl(opts.flowControl ?? flowControlDefaults, { registry, stores, ...(opts.metricsRegistry ? { metricsRegistry: opts.metricsRegistry } : {}), log });
  const deps: HandlerDeps = {
    registry,
    stores,
    flowControl: flowControl.request,
    ...(flowControl.apf === undefined ? {} : { priorityAndFairness: flowControl.apf }),
    ...(namespaceStores ? { namespaceStores } : {}),
    authentication,
    authorizer: chain.authorizer,
    admission: admission.chain,
    ...(opts.audit === undefined ? {} : { audit: opts.audit }),
    bodyTimeoutMs: opts.requestBodyTimeoutMs ?? requestBodyTimeoutMsDefault,
    watchStallTimeoutMs: opts.watchStallTimeoutMs ?? watchStallTimeoutMsDefault,
    metrics: new ApiMetrics(opts.metricsRegistry),
    openapi: new OpenApiDocuments(registry),
    health: healthChecks(opts.storage, opts.healthChecks ?? {}, () => shuttingDown, policy),
    serverAddress: `${opts.listen.host}:${opts.listen.port}`,
    ...(opts.maintenance === undefined ? {} : { maintenance: opts.maintenance }),
    onShutdown(listener) {
      shutdownListeners.add(listener);
      return () => shutdownListeners.delete(listener);
    },
    log,
  };
  // The client certificate is asked for, never required, and not judged by TLS: the authenticators
  // verify it against their own CAs (a request-header proxy's is not a user's). `ca` names the
  // CAs in the certificate request, so that clients (Go's crypto/tls) pick the right certificate.
  const clientCertificateAuthorities = authentication.clientCertificateAuthorities;
  const server = createSecureServer({
    cert: opts.tls.cert, key: opts.tls.key, allowHTTP1: true,
    ...(clientCertificateAuthorities.length > 0 ? { ca: [...clientCertificateAuthorities], requestCert: true, rejectUnauthorized: false } : {}),
    settings: { maxConcurrentStreams: http2StreamsPerConnectionMax },
  }, (req, res) => {
    if (closing) {
      refuseWhileClosing(res);
      return;
    }
    // Stopping (the shutdown delay, then close): HTTP/1.1 clients are told to take their next
    // request elsewhere, so that no connection is idle in their pool when this one goes.
    if (shuttingDown && req.httpVersionMajor === 1) res.setHeader('Connection', 'close');
    inflight++;
    void observeRequest(opts.requestLogger, req, res, () => handleRequest(deps, req as unknown as RawRequest, res as unknown as RawResponse)).catch((err: unknown) => {
      // Answering failed itself: the request is lost, never the server.
      log('a request failed while its answer was written', err);
      if (!res.headersSent) res.destroy();
    }).finally(() => {
      inflight--;
      if (inflight === 0) for (const waiter of idleWaiters.splice(0)) waiter();
    });
  });
  const idleTimeoutMs = opts.idleConnectionTimeoutMs ?? idleConnectionTimeoutMs;
  const sockets = new Set<Socket>();
  const sessions = new Set<Http2Session>();
  server.on('secureConnection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  server.on('session', (s: Http2Session) => {
    sessions.add(s);
    s.on('close', () => sessions.delete(s));
    closeWhenIdle(s, idleTimeoutMs);
  });
  // HTTP/1.1 (allowHTTP1): a keep-alive connection waiting for its next request. Node's HTTP/1
  // handling reads it from this server, which as an HTTP/2 server has none by default.
  (server as unknown as { keepAliveTimeout: number }).keepAliveTimeout = idleTimeoutMs;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.listen.port, opts.listen.host, () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : opts.listen.port;
  // The server's own bootstrap objects, audited as kube-apiserver's loopback client (system:apiserver).
  const own = apiServerStores(stores, opts.audit, 'kube-apiserver');
  const nsServed = registry.find('', 'v1', 'namespaces');
  const nsStore = nsServed && own.get(nsServed);
  const namespacesDone = opts.bootstrapNamespaces?.length && nsStore ? bootstrap(nsStore, opts.bootstrapNamespaces, () => shuttingDown, log) : Promise.resolve();
  const advertised = opts.kubernetesService;
  const serviceDone = advertised === undefined ? namespacesDone : namespacesDone.then(() => bootstrapKubernetesService(own, registry, network, { host: advertised.advertiseHost, port }, () => shuttingDown, log));
  // The default cluster-scoped objects (APF configuration, local APIServices) need no namespace.
  const done = Promise.all([serviceDone, bootstrapDefaultObjects(own, registry, () => shuttingDown, log), policy.ready]);
  // Wait a little so a healthy store has its namespaces before the first request; never block start.
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([done, new Promise((resolve) => (timer = setTimeout(resolve, bootstrapWaitMs)))]);
  clearTimeout(timer);
  return {
    port,
    registry,
    stores,
    authorization,
    authorizationReady: policy.ready,
    beginShutdown() {
      shuttingDown = true;
    },
    async close() {
      shuttingDown = true;
      closing = true;
      await policy.stop();
      await customResources.stop();
      await admission.stop();
      await flowControl.stop();
      for (const listener of [...shutdownListeners]) listener();
      // Let running requests (and the watches just told to stop) finish, then close connections.
      let timer: NodeJS.Timeout | undefined;
      const idle = inflight === 0 ? Promise.resolve() : new Promise<void>((resolve) => idleWaiters.push(resolve));
      await Promise.race([idle, new Promise<void>((resolve) => (timer = setTimeout(resolve, shutdownGraceMs)))]);
      clearTimeout(timer);
      // HTTP/2: GOAWAY; a stream the client opens after it is refused unprocessed, and it knows it.
      for (const s of sessions) s.close();
      // HTTP/1.1 has no such signal: a keep-alive connection ended while idle may cross a request
      // its client is just sending, whose outcome is then unknown. So the listener stays open a
      // while (server.close() ends idle HTTP/1 connections at once): each connection answering a
      // request closes after it (Connection: close), a request racing in is refused with a 503
      // (never processed, safely retried elsewhere), and only what is left is closed after that.
      await drainHttp1Connections(() => http1SocketCount(sockets, sessions), closingDrainMs);
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      const killer = setTimeout(() => {
        for (const s of sessions) s.destroy();
        for (const s of sockets) s.destroy();
      }, shutdownGraceMs);
      await closed;
      clearTimeout(killer);
    },
  };
}

/**
 * The answer to a request arriving while the server closes: 503 before any processing (a client
 * retries it on another replica: it was not applied), and the connection closes after it.
 */
function refuseWhileClosing(res: Http2ServerResponse): void {
  const status = unavailable('the server is shutting down').toStatus();
  const headers: Record<string, string> = { 'Content-Type': 'application/json', 'Retry-After': '1' };
  if (res.req.httpVersionMajor === 1) headers['Connection'] = 'close';
  // The body is read to its end first: a socket closed with unread bytes is reset (RST), and the
  // client would lose this answer with them.
  let answered = false;
  const answer = (): void => {
    if (answered) return;
    answered = true;
    clearTimeout(timer);
    if (res.headersSent || res.destroyed) return;
    res.writeHead(503, headers);
    res.end(JSON.stringify(status));
  };
  const timer = setTimeout(answer, closingBodyWaitMs);
  res.req.once('end', answer).once('error', answer).resume();
}

/** The open connections that speak HTTP/1.1 (every TLS socket that carries no HTTP/2 session). */
function http1SocketCount(sockets: ReadonlySet<Socket>, sessions: ReadonlySet<Http2Session>): number {
  const http2 = new Set<unknown>([...sessions].map((s) => s.socket));
  let n = 0;
  for (const s of sockets) if (!http2.has(s)) n++;
  return n;
}

/** Waits until no HTTP/1.1 connection is open, or `ms` passed. */
async function drainHttp1Connections(count: () => number, ms: number): Promise<void> {
  const until = Date.now() + ms;
  while (count() > 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 25));
}
