// What each API request leaves behind besides its answer: a SERVER span (kube-apiserver's
// WithTracing: named `POST /api/v1/namespaces/{:namespace}/configmaps`, a child of the client's W3C
// `traceparent`) and a request log line (kube's httplog: every request at --v=3 and above, a 5xx
// always). With tracing off and --v below 3 this costs a clock read and two comparisons: nothing is
// parsed or formatted for a line that is not written.
import { SpanStatusCode, type Span } from '@opentelemetry/api';
import type { IncomingHttpHeaders } from 'node:http';
import type { Logger } from '../logging/logger.ts';
import { startServerSpan } from '../tracing/spans.ts';
import { authenticatedUserOrUndefined } from './filters/authentication.ts';
import { parseRequestInfo, type RequestInfo } from './request-info.ts';

/** The verbosity of the request log line (kube's httplog: klog.V(3)). */
export const requestLogVerbosity = 3;

/** The part of a request the observer reads. */
export interface ObservedRequest {
  readonly method?: string;
  readonly url?: string;
  readonly headers: IncomingHttpHeaders;
  readonly httpVersion?: string;
  readonly socket?: { readonly remoteAddress?: string } | null;
}

/** The part of a response the observer reads. */
export interface ObservedResponse {
  readonly statusCode: number;
  getHeader?(name: string): unknown;
}

/** kube's span name for a resource request: the method and the path with the namespace and name templated. */
export function routeOf(info: RequestInfo): string | undefined {
  if (info.kind !== 'resource') return undefined;
  let route = info.group === '' ? `/api/${info.version}` : `/apis/${info.group}/${info.version}`;
  if (info.namespace !== undefined && info.namespace !== '') route += '/namespaces/{:namespace}';
  route += `/${info.resource}`;
  if (info.name !== undefined && info.name !== '') route += '/{:name}';
  if (info.subresource !== undefined && info.subresource !== '') route += `/${info.subresource}`;
  return route;
}

/** The request as routing reads it; null for a path it cannot read (the handler has answered that one already). */
function parsedInfo(method: string, url: string): RequestInfo | null {
  try {
    const parsed = new URL(url, 'https://orch.invalid');
    return parseRequestInfo(method, parsed.pathname, parsed.searchParams);
  } catch {
    return null;
  }
}

/** The audit ID of the exchange: the one answered (Audit-Id), else the one the client sent. */
function auditIdOf(req: ObservedRequest, res: ObservedResponse): string | undefined {
  const answered = res.getHeader?.('audit-id');
  if (typeof answered === 'string' && answered !== '') return answered;
  const sent = req.headers['audit-id'];
  return typeof sent === 'string' && sent !== '' ? sent : undefined;
}

/** Writes the request log line when the logger takes it (see the header). */
function logRequest(logger: Logger, req: ObservedRequest, res: ObservedResponse, method: string, startedMs: number): void {
  const code = res.statusCode;
  const failed = code >= 500;
  if (!failed && !logger.enabled(requestLogVerbosity)) return;
  const latencyMs = Math.round((performance.now() - startedMs) * 100) / 100;
  const url = req.url ?? '/';
  const info = parsedInfo(method, url);
  const resource = info?.kind === 'resource'
    ? {
      verb: info.verb, apiGroup: info.group, apiVersion: info.version, resource: info.resource,
      ...(info.subresource === undefined ? {} : { subresource: info.subresource }),
      ...(info.namespace === undefined ? {} : { namespace: info.namespace }),
      ...(info.name === undefined ? {} : { name: info.name }),
    }
    : {};
  const user = authenticatedUserOrUndefined(req.headers)?.username;
  const auditId = auditIdOf(req, res);
  const userAgent = req.headers['user-agent'];
  const fields = {
    method, uri: url, ...resource, ...(user === undefined ? {} : { user }), code, latencyMs,
    ...(userAgent === undefined ? {} : { userAgent }), ...(auditId === undefined ? {} : { auditID: auditId }),
    ...(req.socket?.remoteAddress === undefined ? {} : { srcIP: req.socket.remoteAddress }),
  };
  if (failed) logger.error('HTTP', undefined, fields);
  else logger.v(requestLogVerbosity, 'HTTP', fields);
}

/** Ends the request's span with what the exchange came to (otelhttp's attributes, kube's name). */
function endSpan(span: Span, req: ObservedRequest, res: ObservedResponse, method: string): void {
  const route = routeOf(parsedInfo(method, req.url ?? '/') ?? { kind: 'non-resource', path: '' });
  if (route !== undefined) {
    span.updateName(`${method} ${route}`);
    span.setAttribute('http.route', route);
  }
  span.setAttribute('http.status_code', res.statusCode);
  const auditId = auditIdOf(req, res);
  if (auditId !== undefined) span.setAttribute('audit-id', auditId);
  if (res.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
  span.end();
}

/**
 * Serves one request through `serve`, inside its span when tracing is on, and logs it once
 * served (a watch: when it ends, as kube's httplog does). `logger` undefined: no request log.
 */
export async function observeRequest(logger: Logger | undefined, req: ObservedRequest, res: ObservedResponse, serve: () => Promise<void>): Promise<void> {
  const startedMs = performance.now();
  const method = (req.method ?? 'GET').toUpperCase();
  const traced = startServerSpan(method, req.headers, () => ({
    'http.method': method,
    'http.target': req.url ?? '/',
    'http.scheme': 'https',
    'http.flavor': req.httpVersion ?? '',
    ...(req.headers['user-agent'] === undefined ? {} : { 'user_agent.original': req.headers['user-agent'] }),
  }));
  // An async function with try/finally: measured cheaper on Node 20 than .then(done, fail).
  try {
    await (traced === undefined ? serve() : traced.run(serve));
  } finally {
    if (traced !== undefined) endSpan(traced.span, req, res, method);
    if (logger !== undefined) logRequest(logger, req, res, method, startedMs);
  }
}
