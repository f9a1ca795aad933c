// Before a replica's RBAC index holds the store's objects, RBAC can allow nothing: it has no
// opinion, with the reason kube-apiserver gives then (its withNotSyncedReason), so a 403 during
// start says why instead of naming a missing right.
import { decide, type Attributes, type Decision, type RuleResolvingAuthorizer, type RulesResult } from '../authorizer.ts';
import type { UserInfo } from '../../authn/user-info.ts';

const notSynced: Decision = Object.freeze(decide('no-opinion', 'informers not synced'));

/** `inner`, answering no-opinion ("informers not synced") until `synced()` is true. */
export function untilSynced(inner: RuleResolvingAuthorizer, synced: () => boolean): RuleResolvingAuthorizer {
  return {
    authorize(attributes: Attributes) {
      return synced() ? inner.authorize(attributes) : notSynced;
    },
    rulesFor(user: UserInfo, namespace: string): RulesResult {
      if (synced()) return inner.rulesFor(user, namespace);
      return { resourceRules: [], nonResourceRules: [], incomplete: true, errors: [new Error('informers not synced')] };
    },
  };
}
