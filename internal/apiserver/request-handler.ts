import type { IncomingHttpHeaders } from 'node:http';
import { deprecatedApiRelease } from './deprecation.ts';
import { constants } from 'node:http2';
import { internalError, StatusError } from '../registry/errors/status-error.ts';
import type { GenericStore } from '../registry/generic/store.ts';
import type { NamespaceStores } from '../registry/core/namespace-deletion.ts';
import type { ResourceRegistry, ServedResource } from '../registry/resource-registry.ts';
import type { Authentication } from '../authn/index.ts';
import type { UserInfo } from '../authn/user-info.ts';
import type { Authorizer } from '../authz/authorizer.ts';
import { authorizeCreateOnUpdate, internalErrorText, PlainInternalError } from '../authz/request-outcome.ts';
import { resourceAttributes } from '../authz/request-attributes.ts';
import { BodyRefusedError, type BodySource } from './body.ts';
import { authenticationFilter, type AuthenticationSource } from './filters/authentication.ts';
import { runRequestFilters } from './filters/request-filters.ts';
import { TooManyRequestsError, tooManyRequestsText, type RequestFlowControl } from './filters/flow-control.ts';
import { dispatchResource, methodNotAllowed, pathNotFound, resourceNotFound } from './handlers/dispatch.ts';
import { servesProtobuf } from './handlers/protobuf-served.ts';
import type { AdmissionChain } from '../admission/chain.ts';
import { RequestAdmission } from '../admission/request-admission.ts';
import { ClientDeparture } from '../flowcontrol/cancellation.ts';
import { fieldManagerOf } from './handlers/request-context.ts';
import { requestTimeoutMsMax } from './limits.ts';
import type { ApiMetrics } from './metrics.ts';
import { negotiateResponse } from './negotiation.ts';
import { serveNonResource, type NonResourceDeps } from './non-resource.ts';
import { prettyOf, requestTimeoutMs } from './query-params.ts';
import { parseRequestInfo, type RequestInfo, type ResourceRequestInfo } from './request-info.ts';
import { Responder, type RawResponse } from './respond.ts';
import { admissionAnnotationsOf, startRequestAudit, type Auditor } from '../audit/auditor.ts';
import { auditAttributes } from '../audit/audit-attributes.ts';

/** The part of a Node HTTP/1 or HTTP/2 compat request the API uses. */
export interface RawRequest extends BodySource, AuthenticationSource {
  readonly method?: string;
  readonly url?: string;
  readonly headers: IncomingHttpHeaders;
  /** Ends the body stream: a read of it still waiting fails at once. */
  destroy?(): unknown;
}

/** What the request handler serves from. */
export interface HandlerDeps extends NonResourceDeps {
  readonly registry: ResourceRegistry;
  readonly stores: ReadonlyMap<ServedResource, GenericStore>;
  readonly namespaceStores?: NamespaceStores;
  /** Who requests are: the authenticator chain, its CAs and the headers it strips. */
  readonly authentication: Authentication;
  /** The authorizer chain every request is asked of (after impersonation). */
  readonly authorizer: Authorizer;
  /** The admission chain writes pass (none: writes are admitted as they are). */
  readonly admission?: AdmissionChain;
  /** API Priority and Fairness or the in-flight limits (none: no limit). */
  readonly flowControl?: RequestFlowControl;
  /** The audit (internal/audit): none when no policy and backend are configured. */
  readonly audit?: Auditor;
  /** How long a request body may take to arrive whole. */
  readonly bodyTimeoutMs: number;
  /** How long a watch's client may take no data while events wait for it. */
  readonly watchStallTimeoutMs: number;
  readonly metrics: ApiMetrics;
  /** Registers a listener called when the server shuts down (open watches end then); returns its removal. */
  readonly onShutdown: (listener: () => void) => () => void;
  readonly log: (message: string, err?: unknown) => void;
}

/** HTTP methods reported as they are; any other (HTTP/2 takes any token) is `other`, as kube-apiserver reports it. */
const reportedMethods: ReadonlySet<string> = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'CONNECT']);

/**
 * The labels of a request's metrics. Every value comes from a bounded set: a client choosing its
 * method or the path of a resource that does not exist must not add a series per request.
 */
function metricLabels(info: ResourceRequestInfo | null, served: ServedResource | undefined, method: string) {
  const methodVerb = reportedMethods.has(method) ? method : 'other';
  const unknown = { group: '', version: '', resource: '', subresource: '' };
  if (!info) return { verb: methodVerb, ...unknown };
  const verb = info.verb === 'list' ? 'LIST' : info.verb === 'watch' ? 'WATCH' : methodVerb;
  if (!served) return { verb, ...unknown };
  const sub = info.subresource;
  const declared = sub !== undefined && (Object.hasOwn(served.decl.subresources ?? {}, sub) || Object.hasOwn(served.decl.subresources?.more ?? {}, sub));
  const subresource = declared && sub !== undefined ? sub : '';
  return { verb, group: info.group, version: info.version, resource: info.resource, subresource };
}

/**
 * The admission of one write: the resource and sub-resource as the request named them, its user,
 * dry run and field manager; warnings go out as `Warning` headers. (The query's options were not
 * validated yet: a malformed dryRun is refused by the handler before admission runs.)
 */
function requestAdmission(chain: AdmissionChain, info: ResourceRequestInfo, served: ServedResource, query: URLSearchParams, headers: RawRequest['headers'], out: Responder, user: UserInfo): RequestAdmission {
  const fieldManager = query.get('fieldManager');
  return new RequestAdmission(chain, {
    resource: { group: info.group, version: info.version, resource: info.resource },
    subresource: info.subresource ?? '',
    kind: { group: served.group, version: served.version, kind: served.decl.kind },
    namespace: info.namespace ?? '',
    name: info.name ?? '',
    userInfo: user,
    dryRun: query.getAll('dryRun').length > 0,
    ...(fieldManager !== null && fieldManager !== '' ? { fieldManager } : { fieldManager: fieldManagerOf(query, headers) }),
    warn: (text) => out.warn(text),
    annotations: admissionAnnotationsOf(headers),
  });
}

async function serveResource(
  deps: HandlerDeps, info: ResourceRequestInfo, served: ServedResource | undefined, req: RawRequest, out: Responder, query: URLSearchParams, closed: Promise<void>, user: UserInfo,
): Promise<void> {
  const store = served && deps.stores.get(served);
  if (!served || !store) throw resourceNotFound(deps.registry.apiDomain, info);
  // /api/v1/namespaces/{name}[/{subresource}] parses with the name as its namespace (kube's RequestInfo
  // does too); any other namespace on a namespace's path (/namespaces/a/namespaces[/b]) is no route,
  // or a right granted in `a` would reach every namespace.
  const ownPath = info.resource === 'namespaces' && info.name !== undefined && info.namespace === info.name;
  const resourceInfo: ResourceRequestInfo = !served.decl.namespaced && ownPath ? { ...info, namespace: undefined } : info;
  if (!served.decl.namespaced && resourceInfo.namespace !== undefined) throw pathNotFound();
  const readVerb = info.verb === 'get' || info.verb === 'list';
  const tableVerb = readVerb || info.verb === 'watch';
  const negotiated = negotiateResponse(req.headers.accept, deps.registry.apiDomain, { views: tableVerb && info.subresource === undefined, protobuf: () => servesProtobuf(served, info.subresource) });
  out.options.format = negotiated.format;
  out.options.protobuf = negotiated.protobuf;
  out.options.gzip = readVerb && /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''));
  // Asked only by a write that turns out to create (PUT create-on-update, apply of a missing object): built then, not per request.
  const authorizeCreate = async (): Promise<void> => {
    const createAttributes = resourceAttributes(user, { verb: 'create', apiGroup: info.group, apiVersion: info.version, resource: info.resource, ...(info.namespace === undefined ? {} : { namespace: info.namespace }), ...(info.subresource === undefined ? {} : { subresource: info.subresource }), ...(info.name === undefined ? {} : { name: info.name }) });
    const refusal = await authorizeCreateOnUpdate(deps.authorizer, createAttributes);
    if (refusal !== null) throw refusal;
  };
  // Writes are admitted; so is a connection to a connecting sub-resource (exec, attach, proxy...), whatever its method.
  const declared = info.subresource === undefined ? undefined : served.decl.subresources?.more?.[info.subresource];
  const connecting = declared !== undefined && declared.view === undefined && declared.body === undefined;
  const admitted = connecting || (!readVerb && info.verb !== 'watch');
  const admission = deps.admission !== undefined && admitted ? requestAdmission(deps.admission, resourceInfo, served, query, req.headers, out, user) : undefined;
  await dispatchResource({
    info: resourceInfo, served, store, query, headers: req.headers, body: req, bodyTimeoutMs: deps.bodyTimeoutMs, watchStallTimeoutMs: deps.watchStallTimeoutMs, out, apiDomain: deps.registry.apiDomain, closed, user, authorizeCreate,
    ...(deps.namespaceStores ? { namespaceStores: deps.namespaceStores } : {}),
    ...(admission === undefined ? {} : { admission }),
  });
}

/**
 * Ends the exchange of a request whose body was not read whole once its answer is out: HTTP/1.1
 * closes the connection (what follows on it is the rest of that body), HTTP/2 cancels the stream.
 */
function endExchangeAfterAnswer(res: RawResponse): void {
  const stream = res.stream;
  if (stream === undefined) res.setHeader('Connection', 'close');
  // The stream's own 'finish' (its side sent); the compat response's comes only once the stream closed.
  else stream.once('finish', () => stream.close(constants.NGHTTP2_CANCEL));
}

/**
 * Waits for `work`, at most `ms` (kube-apiserver's request deadline and timeout filters): past it
 * the client gets a 504 Timeout and the handler runs on unheard, whatever it sends later dropped.
 */
async function withinDeadline(deps: HandlerDeps, work: Promise<void>, ms: number, req: RawRequest, out: Responder, res: RawResponse): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<true>((resolve) => (timer = setTimeout(() => resolve(true), ms)));
  try {
    if (!(await Promise.race([work.then(() => false), expired]))) return;
  } finally {
    clearTimeout(timer);
  }
  work.catch((err: unknown) => {
    // Its body, if it was still reading one, ends with the exchange: that failure is expected.
    const code = (err as { code?: unknown } | null)?.code;
    if (!(err instanceof StatusError) && code !== 'ERR_STREAM_PREMATURE_CLOSE' && code !== 'ECONNRESET') deps.log('unexpected error in a request that had timed out', err);
  });
  // Its body may not have arrived whole: what follows on the connection could be the rest of it, and
  // a body read still waiting would wait for its own timeout once the exchange is over.
  endExchangeAfterAnswer(res);
  res.on('close', () => req.destroy?.());
  out.expire(new StatusError(504, 'Timeout', 'Timeout: request did not complete within the allotted timeout', {}));
}

/** Serves one HTTP request end to end: authentication, routing, handlers, errors, metrics. */
export async function handleRequest(deps: HandlerDeps, req: RawRequest, res: RawResponse): Promise<void> {
  const started = process.hrtime.bigint();
  const method = (req.method ?? 'GET').toUpperCase();
  const url = new URL(req.url ?? '/', 'https://orch.invalid');
  const query = url.searchParams;
  const audit = startRequestAudit(deps.audit, req, res);
  const out = new Responder(res, { format: 'json', pretty: prettyOf(query, req.headers['user-agent']), gzip: false, accept: req.headers.accept }, audit);
  let unsubscribe = (): void => undefined;
  // Ended when the client leaves: a request still queued by flow control is dropped.
  const left = new ClientDeparture();
  const closed = new Promise<void>((resolve) => {
    res.on('close', () => {
      left.abort();
      resolve();
    });
    unsubscribe = deps.onShutdown(resolve);
  });
  let release = (): void => undefined;
  let info: ResourceRequestInfo | null = null;
  let served: ServedResource | undefined;
  let parsed: RequestInfo | null | undefined;
  try {
    parsed = parseRequestInfo(method, url.pathname, query);
    // The deadline is set before authentication, as kube-apiserver's filters run: a `timeout` that
    // is no Go duration is a 400 for anyone. A watch is long-running: `timeoutSeconds` ends it.
    const deadlineMs = parsed?.kind === 'resource' && parsed.verb === 'watch' ? undefined : requestTimeoutMs(query, requestTimeoutMsMax);
    await authenticationFilter(deps.authentication, req, (reason) => deps.log(`unable to authenticate the request: ${reason}`));
    const filtered = await runRequestFilters(deps, {
      headers: req.headers, ...(req.rawHeaders ? { rawHeaders: req.rawHeaders } : {}), method, query, info: parsed, path: url.pathname, ...(audit ? { audit } : {}),
      setHeader: (name, value) => res.setHeader(name, value), signal: left,
    });
    const user = filtered.user;
    release = filtered.release;
    if (parsed === null) throw methodNotAllowed();
    let work: Promise<void>;
    if (parsed.kind === 'non-resource') work = serveNonResource(deps, method, url.pathname, query, req.headers, req, out);
    else {
      info = parsed;
      served = deps.registry.find(parsed.group, parsed.version, parsed.resource);
      if (served !== undefined) audit?.deprecated(deprecatedApiRelease(served));
      work = serveResource(deps, parsed, served, req, out, query, closed, user);
    }
    await (deadlineMs === undefined ? work : withinDeadline(deps, work, deadlineMs, req, out, res));
  } catch (err) {
    audit?.failed(err, { expected: err instanceof StatusError || err instanceof PlainInternalError || err instanceof TooManyRequestsError, query, attributes: () => auditAttributes(undefined, { method, path: url.pathname, query, info: parsed }) });
    // kube's filters answer a refusal by flow control as Go's http.Error does: plain text, not a Status.
    if (err instanceof TooManyRequestsError) {
      res.setHeader('Retry-After', String(err.retryAfterSeconds));
      res.setHeader('X-Content-Type-Options', 'nosniff');
      out.sendText(429, tooManyRequestsText);
      return;
    }
    // kube's filters answer an authorizer's failure as Go's http.Error does: plain text, not a Status.
    if (err instanceof PlainInternalError) {
      out.sendText(500, internalErrorText(req.url ?? '/', err));
      return;
    }
    if (!(err instanceof StatusError)) deps.log(`unexpected error serving ${method} ${url.pathname}`, err);
    if (err instanceof BodyRefusedError) endExchangeAfterAnswer(res);
    out.sendError(err instanceof StatusError ? err : internalError('an unexpected error happened; see the server log'));
  } finally {
    release();
    audit?.end();
    unsubscribe();
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const labels = metricLabels(info, served, method);
    deps.metrics.observe(labels, res.statusCode, seconds);
    // As kube's route instrumentation: a request refused before it reached the API (401, 403) is not counted.
    const removedRelease = served === undefined ? undefined : deprecatedApiRelease(served);
    if (removedRelease !== undefined && res.statusCode !== 401 && res.statusCode !== 403) {
      const { group, version, resource, subresource } = labels;
      deps.metrics.deprecatedApiRequested({ group, version, resource, subresource }, removedRelease);
    }
  }
}
