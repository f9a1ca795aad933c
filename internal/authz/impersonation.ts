// Impersonation, as kube-apiserver 1.28's WithImpersonation filter (k8s.io/apiserver
// endpoints/filters/impersonation.go): each Impersonate-* value is a separate `impersonate` check
// of the caller (users, groups, serviceaccounts in the core group; uids and userextras/<key> in
// authentication.<domain>; resourceNames honoured); only when all pass does the request go on as
// the impersonated user, whose groups kube completes as below.
import type { UserInfo } from '../authn/user-info.ts';
import { systemAnonymous, systemAuthenticated, systemUnauthenticated } from '../authn/user-info.ts';
import type { StatusError } from '../registry/errors/status-error.ts';
import { dns1123Label, dns1123Subdomain } from '../registry/schema/name-validation.ts';
import type { Attributes, Authorizer } from './authorizer.ts';
import { forbiddenError } from './forbidden.ts';
import { serviceAccountGroups, serviceAccountUsername, serviceAccountUsernamePrefix } from './rbac/rbac-objects.ts';
import { resourceAttributes } from './request-attributes.ts';
import { PlainInternalError } from './request-outcome.ts';

/** The request headers (lower-case names) as Node's `req.headersDistinct` gives them: every value of a repeated header. */
export type HeaderValues = Readonly<Record<string, readonly string[] | undefined>>;

const userHeader = 'impersonate-user';
const groupHeader = 'impersonate-group';
const uidHeader = 'impersonate-uid';
const extraHeaderPrefix = 'impersonate-extra-';

/** Whether a header is one of impersonation's, which the filter removes before the request goes on. */
export function isImpersonationHeader(name: string): boolean {
  const n = name.toLowerCase();
  return n === userHeader || n === groupHeader || n === uidHeader || n.startsWith(extraHeaderPrefix);
}

/** One thing the caller asks to act as (kube builds an ObjectReference for each). */
export interface ImpersonationRequest {
  readonly kind: 'User' | 'ServiceAccount' | 'Group' | 'UserExtra' | 'UID';
  readonly namespace: string;
  readonly name: string;
  /** The extra key of a UserExtra request (kube's FieldPath). */
  readonly extraKey: string;
}

/** The namespace and name of a service-account user name, or null (kube's serviceaccount.SplitUsername). */
export function splitServiceAccountUsername(username: string): { namespace: string; name: string } | null {
  if (!username.startsWith(serviceAccountUsernamePrefix)) return null;
  const parts = username.slice(serviceAccountUsernamePrefix.length).split(':');
  if (parts.length !== 2) return null;
  const [namespace = '', name = ''] = parts;
  if (dns1123Label(namespace).length > 0 || namespace === '' || dns1123Subdomain(name).length > 0 || name === '') return null;
  return { namespace, name };
}

// Go's %v of the ObjectReference kube reports in the 500 (Kind Namespace Name UID APIVersion ResourceVersion FieldPath).
function goObjectReference(r: ImpersonationRequest): string {
  const apiVersion = r.kind === 'UserExtra' || r.kind === 'UID' ? 'authentication.k8s.io/v1' : '';
  return `{${[r.kind, r.namespace, r.name, '', apiVersion, '', r.extraKey].join(' ')}}`;
}

function unescapeExtraKey(encoded: string): string {
  try {
    return decodeURIComponent(encoded);
  } catch {
    return encoded; // kube keeps a malformed key as it came
  }
}

/**
 * What the headers ask to impersonate, in kube's order: user, groups, extras (by header name), uid.
 * Throws kube's plain-text 500 (PlainInternalError) when groups, extras or a uid come without a user.
 */
export function impersonationRequests(headers: HeaderValues): ImpersonationRequest[] {
  const requests: ImpersonationRequest[] = [];
  const user = headers[userHeader]?.[0] ?? '';
  if (user !== '') {
    const sa = splitServiceAccountUsername(user);
    requests.push(sa === null ? { kind: 'User', namespace: '', name: user, extraKey: '' } : { kind: 'ServiceAccount', ...sa, extraKey: '' });
  }
  for (const group of headers[groupHeader] ?? []) requests.push({ kind: 'Group', namespace: '', name: group, extraKey: '' });
  const extraHeaders = Object.keys(headers).filter((h) => h.toLowerCase().startsWith(extraHeaderPrefix)).sort();
  for (const h of extraHeaders) {
    const key = unescapeExtraKey(h.toLowerCase().slice(extraHeaderPrefix.length));
    for (const value of headers[h] ?? []) requests.push({ kind: 'UserExtra', namespace: '', name: value, extraKey: key });
  }
  const uid = headers[uidHeader]?.[0] ?? '';
  if (uid !== '') requests.push({ kind: 'UID', namespace: '', name: uid, extraKey: '' });
  if (user === '' && requests.length > 0) throw new PlainInternalError(`requested [${requests.map(goObjectReference).join(' ')}] without impersonating a user`);
  return requests;
}

/** The `impersonate` check for one request (kube's actingAsAttributes). */
export function impersonationAttributes(caller: UserInfo, r: ImpersonationRequest, authenticationGroup = 'authentication.k8s.io'): Attributes {
  switch (r.kind) {
    case 'ServiceAccount':
      return resourceAttributes(caller, { verb: 'impersonate', resource: 'serviceaccounts', namespace: r.namespace, name: r.name });
    case 'User':
      return resourceAttributes(caller, { verb: 'impersonate', resource: 'users', name: r.name });
    case 'Group':
      return resourceAttributes(caller, { verb: 'impersonate', resource: 'groups', name: r.name });
    case 'UserExtra':
      return resourceAttributes(caller, { verb: 'impersonate', apiGroup: authenticationGroup, apiVersion: 'v1', resource: 'userextras', subresource: r.extraKey, name: r.name });
    case 'UID':
      return resourceAttributes(caller, { verb: 'impersonate', apiGroup: authenticationGroup, apiVersion: 'v1', resource: 'uids', name: r.name });
  }
}

/** The identity the request goes on with after the checks passed (kube's completion of groups). */
export function impersonatedUser(requests: readonly ImpersonationRequest[]): UserInfo {
  const groupsSpecified = requests.some((r) => r.kind === 'Group');
  let username = '';
  let uid = '';
  let groups: string[] = [];
  const extra: Record<string, string[]> = {};
  for (const r of requests) {
    if (r.kind === 'ServiceAccount') {
      username = serviceAccountUsername(r.namespace, r.name);
      // A service account's groups are fixed by its namespace, unless the caller names groups.
      if (!groupsSpecified) groups = serviceAccountGroups(r.namespace);
    } else if (r.kind === 'User') username = r.name;
    else if (r.kind === 'Group') groups.push(r.name);
    else if (r.kind === 'UserExtra') (extra[r.extraKey] ??= []).push(r.name);
    else uid = r.name;
  }
  if (username !== systemAnonymous) {
    // system:authenticated is added unless the caller named it or system:unauthenticated.
    if (!groups.includes(systemAuthenticated) && !groups.includes(systemUnauthenticated)) groups = [...groups, systemAuthenticated];
  } else if (!groups.includes(systemUnauthenticated)) groups = [...groups, systemUnauthenticated];
  return { username, uid, groups, extra };
}

/**
 * Runs the impersonation checks of a request. Returns null when it asks to impersonate nobody, the
 * impersonated user when the caller may; throws the 403 StatusError of the first refused check
 * (kube refuses even when the authorizer failed), or PlainInternalError for a malformed request.
 */
export async function impersonate(options: { authorizer: Authorizer; caller: UserInfo; headers: HeaderValues; authenticationGroup?: string }): Promise<UserInfo | null> {
  const requests = impersonationRequests(options.headers);
  if (requests.length === 0) return null;
  for (const r of requests) {
    const attributes = impersonationAttributes(options.caller, r, options.authenticationGroup);
    const answer = await options.authorizer.authorize(attributes);
    if (answer.decision !== 'allow') throw impersonationForbidden(attributes, answer.reason);
  }
  return impersonatedUser(requests);
}

function impersonationForbidden(attributes: Attributes, reason: string): StatusError {
  return forbiddenError(attributes, reason);
}
