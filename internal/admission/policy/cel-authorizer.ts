// orch's Authorizer as the expression language's authorizer library asks it (kube's authz
// library over authorizer.Authorizer): one check is one authorization of the request's user, or
// of a service account after `serviceAccount(ns, name)`, with apiVersion `*` for resource checks
// as kube's library sets it. Answers are kept for the request (kube's caching authorizer).
import type { UserInfo } from '../../authn/user-info.ts';
import type { Attributes, Authorizer } from '../../authz/authorizer.ts';
import { nonResourceAttributes, resourceAttributes } from '../../authz/request-attributes.ts';
import { serviceAccountUser } from '../../authn/serviceaccount/names.ts';
import { checkKey, type AuthorizationCheck, type AuthorizationDecision, type CelAuthorizer } from '../../cel/library/authorizer.ts';

/** The authorizer attributes of one check (a `serviceAccount(namespace, name)` check asks for that account's user). */
export function checkAttributes(check: AuthorizationCheck, user: UserInfo): Attributes {
  const asked = check.serviceAccount === undefined ? user : serviceAccountUser({ ...check.serviceAccount, uid: '' });
  if (check.path !== undefined) return nonResourceAttributes(asked, check.verb, check.path);
  return resourceAttributes(asked, { verb: check.verb, namespace: check.namespace, apiGroup: check.group, apiVersion: '*', resource: check.resource, subresource: check.subresource, name: check.name });
}

/** A CelAuthorizer for `user` over `authorizer`, remembering each distinct check's answer. */
export function celAuthorizerFor(authorizer: Authorizer, user: UserInfo): CelAuthorizer {
  const answers = new Map<string, Promise<AuthorizationDecision>>();
  const ask = async (check: AuthorizationCheck): Promise<AuthorizationDecision> => {
    const decision = await authorizer.authorize(checkAttributes(check, user));
    return { allowed: decision.decision === 'allow', reason: decision.reason, ...(decision.error === undefined ? {} : { error: decision.error.message }) };
  };
  return {
    check(check) {
      const key = checkKey(check);
      let answer = answers.get(key);
      if (answer === undefined) {
        answer = ask(check);
        answers.set(key, answer);
      }
      return answer;
    },
  };
}
