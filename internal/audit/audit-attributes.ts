// The attributes the policy judges a request by: authorization's (kube's GetAuthorizerAttributes),
// with no user for a request that failed before authentication ended.
import type { UserInfo } from '../authn/user-info.ts';
import { attributesFromRequest, type RequestInfo } from '../authz/request-attributes.ts';
import type { AuditAttributes } from './policy-checker.ts';

/** The attributes of a request; `info` null or undefined (a method a resource path does not take, a path that did not parse) is judged as a non-resource request of `path`. */
export function auditAttributes(user: UserInfo | undefined, request: { method: string; path: string; query: URLSearchParams; info: RequestInfo | null | undefined }): AuditAttributes {
  const info: RequestInfo = request.info ?? { kind: 'non-resource', path: request.path };
  const attributes = attributesFromRequest({ user: user ?? { username: '', uid: '', groups: [], extra: {} }, method: request.method, info, query: request.query });
  return { ...attributes, user };
}
