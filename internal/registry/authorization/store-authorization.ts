// What the stores that authorize (the RBAC kinds' escalation checks, the access reviews) are handed
// by whoever builds the stores: the request authorizer chain, its rule resolver, and the RBAC index.
import type { Authorizer, RuleResolver } from '../../authz/authorizer.ts';
import type { RbacIndex } from '../../authz/rbac/rbac-index.ts';

/** The authorization of the server the stores serve in; one per server, shared by its stores. */
export interface StoreAuthorization {
  /** The whole chain (system:masters, then each --authorization-mode): what the filter asks. */
  readonly authorizer: Authorizer;
  /** The rules a user holds (SelfSubjectRulesReview). */
  readonly ruleResolver: RuleResolver;
  /** This replica's RBAC objects (escalation checks resolve held rules through it). */
  readonly index: RbacIndex;
  /** The served RBAC group (`rbac.authorization.<domain>`). */
  readonly rbacGroup: string;
}
