// The authorization filter (kube-apiserver's WithAuthorization): every request, resource or not
// (discovery, /openapi, /metrics, health), is asked of the authorizer chain with the attributes
// kube builds; a refusal is the 403 Status, an authorizer's failure the plain-text 500.
import type { UserInfo } from '../../authn/user-info.ts';
import type { Authorizer } from '../../authz/authorizer.ts';
import { attributesFromRequest } from '../../authz/request-attributes.ts';
import { authorizeRequest } from '../../authz/request-outcome.ts';
import type { RequestInfo } from '../request-info.ts';

/** Returns when `user` may make the request; throws the 403 StatusError or PlainInternalError otherwise. */
export async function authorizationFilter(authorizer: Authorizer, request: { user: UserInfo; method: string; info: RequestInfo; query: URLSearchParams }): Promise<void> {
  const refusal = await authorizeRequest(authorizer, attributesFromRequest(request));
  if (refusal !== null) throw refusal;
}
