// The authorization filter (kube-apiserver's WithAuthorization): every request, resource or not
// (discovery, /openapi, /metrics, health), is asked of the authorizer chain with the attributes
// kube builds; a refusal is the 403 Status, an authorizer's failure the plain-text 500.
import type { UserInfo } from '../../authn/user-info.ts';
import type { Authorizer, Decision } from '../../authz/authorizer.ts';
import { attributesFromRequest } from '../../authz/request-attributes.ts';
import { decisionOutcome } from '../../authz/request-outcome.ts';
import type { RequestInfo } from '../request-info.ts';

/**
 * Returns when `user` may make the request; throws the 403 StatusError or PlainInternalError
 * otherwise. `audit` hears the decision first (kube annotates the audit event with it).
 */
export async function authorizationFilter(
  authorizer: Authorizer, request: { user: UserInfo; method: string; info: RequestInfo; query: URLSearchParams }, audit?: { authorized(decision: Decision): void },
): Promise<void> {
  const attributes = attributesFromRequest(request);
  const decision = await authorizer.authorize(attributes);
  audit?.authorized(decision);
  const refusal = decisionOutcome(attributes, decision);
  if (refusal !== null) throw refusal;
}
