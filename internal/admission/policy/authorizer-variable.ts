// The `authorizer` variable of a request's admission expressions: orch's authorizer for the
// request's user (kube's NewAuthorizerVal); the expression engine derives
// `authorizer.requestResource` from the `request` variable (kube's NewResourceAuthorizerVal).
import type { Authorizer } from '../../authz/authorizer.ts';
import type { CelAuthorizer } from '../../cel/library/authorizer.ts';
import type { AdmissionAttributes } from '../attributes.ts';
import { celAuthorizerFor } from './cel-authorizer.ts';

/** The activation value of `authorizer` for one request (shared by its expressions, which share its answers). */
export function authorizerVariable(authorizer: Authorizer, attributes: AdmissionAttributes): CelAuthorizer {
  return celAuthorizerFor(authorizer, attributes.userInfo);
}
