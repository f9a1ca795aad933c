// Attributes of an HTTP request as kube-apiserver's WithAuthorization filter builds them from its
// RequestInfo (k8s.io/apiserver endpoints/filters/authorization.go GetAuthorizerAttributes).
import type { UserInfo } from '../authn/user-info.ts';
import { pathSegmentName } from '../registry/schema/name-validation.ts';
import type { Attributes } from './authorizer.ts';

/**
 * What a request's method, path and query say, as the server parses them (its RequestInfo has this
 * shape; declared here so that authorization does not import the HTTP floor above it).
 */
export type RequestInfo =
  | { readonly kind: 'non-resource'; readonly path: string }
  | { readonly kind: 'resource'; readonly verb: string; readonly group: string; readonly version: string; readonly resource: string; readonly namespace?: string; readonly name?: string; readonly subresource?: string };

/** The verbs kube's RequestInfo gives resource requests. */
export const resourceVerbs = ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete', 'deletecollection'] as const;
/** The verbs no request carries, which RBAC rules name for checks made in code (impersonation, escalation, CSR approval and signing, PSP `use`). */
export const specialVerbs = ['impersonate', 'escalate', 'bind', 'approve', 'sign', 'use'] as const;

/**
 * The object name an exact `metadata.name` field selector asks for (kube's RequiresExactMatch),
 * when it is a valid path segment; kube authorizes `kubectl get pod x -w` against resourceNames so.
 */
export function nameFromFieldSelector(query: URLSearchParams): string {
  const selector = query.get('fieldSelector');
  if (selector === null) return '';
  for (const term of selector.split(',')) {
    const match = /^\s*metadata\.name\s*==?\s*(.*?)\s*$/.exec(term);
    if (match === null) continue;
    const name = match[1] ?? '';
    return name !== '' && pathSegmentName(name).length === 0 ? name : '';
  }
  return '';
}

/**
 * The attributes of a request for authorization. `query` is read only for a list or watch without a
 * name (its `metadata.name` field selector); a non-resource request's verb is the lower-cased method.
 */
export function attributesFromRequest(options: { user: UserInfo; method: string; info: RequestInfo; query: URLSearchParams }): Attributes {
  const { user, method, info, query } = options;
  if (info.kind === 'non-resource') {
    return { user, verb: method.toLowerCase(), resourceRequest: false, namespace: '', apiGroup: '', apiVersion: '', resource: '', subresource: '', name: '', path: info.path };
  }
  let name = info.name ?? '';
  if (name === '' && (info.verb === 'list' || info.verb === 'watch')) name = nameFromFieldSelector(query);
  return {
    user,
    verb: info.verb,
    resourceRequest: true,
    namespace: info.namespace ?? '',
    apiGroup: info.group,
    apiVersion: info.version,
    resource: info.resource,
    subresource: info.subresource ?? '',
    name,
    path: '',
  };
}

/** Attributes of a resource request built by hand (special verbs, reviews, tests); the missing parts are ''. */
export function resourceAttributes(user: UserInfo, parts: { verb: string; resource: string; apiGroup?: string; apiVersion?: string; namespace?: string; subresource?: string; name?: string }): Attributes {
  return { user, verb: parts.verb, resourceRequest: true, namespace: parts.namespace ?? '', apiGroup: parts.apiGroup ?? '', apiVersion: parts.apiVersion ?? '', resource: parts.resource, subresource: parts.subresource ?? '', name: parts.name ?? '', path: '' };
}

/** Attributes of a non-resource request built by hand. */
export function nonResourceAttributes(user: UserInfo, verb: string, path: string): Attributes {
  return { user, verb, resourceRequest: false, namespace: '', apiGroup: '', apiVersion: '', resource: '', subresource: '', name: '', path };
}
