/** What a request is about, parsed from its method, path and query alone (no registry lookups). */
import { badRequest } from '../registry/errors/status-error.ts';
import { boolParam } from './query-params.ts';

/** A request for a resource (`/api/v1/...` or `/apis/{group}/{version}/...`). */
export interface ResourceRequestInfo {
  readonly kind: 'resource';
  readonly verb: 'get' | 'list' | 'watch' | 'create' | 'update' | 'patch' | 'delete' | 'deletecollection';
  readonly group: string;
  readonly version: string;
  readonly resource: string;
  readonly namespace?: string;
  readonly name?: string;
  readonly subresource?: string;
  /** What follows the sub-resource in the path (`pods/x/proxy/a/b`: `a/b`); only connecting sub-resources take one. */
  readonly subpath?: string;
}

/** A request for anything else: discovery, health, version, OpenAPI, metrics. */
export interface NonResourceRequestInfo {
  readonly kind: 'non-resource';
  readonly path: string;
}

/** The parsed request. */
export type RequestInfo = ResourceRequestInfo | NonResourceRequestInfo;

// Sub-resources of a namespace object itself, reached as /namespaces/{name}/{subresource}.
const namespaceSubresources = new Set(['status', 'finalize']);

function verbOf(method: string, hasName: boolean, watch: boolean): ResourceRequestInfo['verb'] | null {
  switch (method) {
    case 'GET':
    case 'HEAD':
      if (watch) return 'watch';
      return hasName ? 'get' : 'list';
    case 'POST':
      return 'create';
    case 'PUT':
      return 'update';
    case 'PATCH':
      return 'patch';
    case 'DELETE':
      return hasName ? 'delete' : 'deletecollection';
    default:
      return null;
  }
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw badRequest(`malformed percent-encoding in the path segment "${segment}"`);
  }
}

/**
 * Parses a request. Returns null for a resource path with an unsupported method (405); throws a
 * 400 StatusError for a malformed path.
 */
export function parseRequestInfo(method: string, path: string, query: URLSearchParams): RequestInfo | null {
  const parts = path.split('/').filter((p) => p !== '').map(decodeSegment);
  let rest: string[];
  let group: string;
  if (parts[0] === 'api' && parts.length >= 3) {
    group = '';
    rest = parts.slice(1);
  } else if (parts[0] === 'apis' && parts.length >= 4) {
    group = parts[1] ?? '';
    rest = parts.slice(2);
  } else return { kind: 'non-resource', path };
  const version = rest[0] ?? '';
  let segments = rest.slice(1);
  // The legacy watch paths: /api/v1/watch/... and /apis/{group}/{version}/watch/..., GET only.
  const watchPath = segments[0] === 'watch' && segments.length > 1;
  if (watchPath) segments = segments.slice(1);
  let namespace: string | undefined;
  if (segments[0] === 'namespaces' && segments.length > 1) {
    namespace = segments[1];
    if (segments.length > 2 && !namespaceSubresources.has(segments[2] ?? '')) segments = segments.slice(2);
  }
  const [resource = '', name, subresource, ...extra] = segments;
  // As kube-apiserver's RequestInfoFactory: segments past the sub-resource are its path (proxy's);
  // the router answers 404 for a sub-resource that takes none.
  const subpath = extra.length > 0 ? extra.join('/') : undefined;
  // `watch` reads as kube-apiserver's bool parameters: `true`, `True`, `1`, a bare `?watch`... all watch.
  // With a name in the path only the legacy watch path watches: kube-apiserver reads `?watch` on
  // a collection only (a named GET with it is a get, served and authorized as one).
  const watch = watchPath || (name === undefined && boolParam(query, 'watch'));
  if (watchPath && method !== 'GET' && method !== 'HEAD') return null;
  // kube-apiserver's proxy sub-resources (pods, services, nodes) serve OPTIONS as any other
  // method (their ConnectMethods list it), as the `get` of a connection here; elsewhere it is a 405.
  const verb = method === 'OPTIONS' && subresource === 'proxy' && name !== undefined ? 'get' : verbOf(method, name !== undefined, watch);
  if (verb === null) return null;
  return { kind: 'resource', verb, group, version, resource, ...(namespace === undefined ? {} : { namespace }), ...(name === undefined ? {} : { name }), ...(subresource === undefined ? {} : { subresource }), ...(subpath === undefined ? {} : { subpath }) };
}
