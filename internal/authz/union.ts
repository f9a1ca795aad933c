// Unions of authorizers and rule resolvers (k8s.io/apiserver authorization/union): the first allow
// or deny wins; the reasons of those with no opinion are joined by newlines, their errors kept.
import type { UserInfo } from '../authn/user-info.ts';
import { decide, type Attributes, type Authorizer, type Decision, type NonResourceRuleInfo, type ResourceRuleInfo, type RuleResolver, type RulesResult } from './authorizer.ts';
import { aggregateMessage } from './go-format.ts';

/** Tries each authorizer in order (kube's union.New). Synchronous authorizers stay synchronous in effect; the result is a promise only if one is. */
export function unionAuthorizer(authorizers: readonly Authorizer[]): Authorizer {
  return {
    authorize(attributes: Attributes): Decision | Promise<Decision> {
      const reasons: string[] = [];
      const errors: Error[] = [];
      for (let i = 0; i < authorizers.length; i++) {
        const answer = authorizers[i]?.authorize(attributes);
        if (answer === undefined) continue;
        if (answer instanceof Promise) return continueAsync(answer, i, authorizers, attributes, reasons, errors);
        const done = take(answer, reasons, errors);
        if (done !== null) return done;
      }
      return finish(reasons, errors);
    },
  };
}

function take(answer: Decision, reasons: string[], errors: Error[]): Decision | null {
  if (answer.error !== undefined) errors.push(answer.error);
  if (answer.reason !== '') reasons.push(answer.reason);
  return answer.decision === 'no-opinion' ? null : answer;
}

function finish(reasons: string[], errors: Error[]): Decision {
  return decide('no-opinion', reasons.join('\n'), errors.length === 0 ? undefined : new Error(aggregateMessage(errors)));
}

async function continueAsync(first: Promise<Decision>, at: number, authorizers: readonly Authorizer[], attributes: Attributes, reasons: string[], errors: Error[]): Promise<Decision> {
  const done = take(await first, reasons, errors);
  if (done !== null) return done;
  for (let i = at + 1; i < authorizers.length; i++) {
    const next = authorizers[i];
    if (next === undefined) continue;
    const later = take(await next.authorize(attributes), reasons, errors);
    if (later !== null) return later;
  }
  return finish(reasons, errors);
}

/** Joins the rules each resolver lists (kube's unionAuthzRulesHandler): incomplete if any is. */
export function unionRuleResolver(resolvers: readonly RuleResolver[]): RuleResolver {
  return {
    rulesFor(user: UserInfo, namespace: string): RulesResult {
      const resourceRules: ResourceRuleInfo[] = [];
      const nonResourceRules: NonResourceRuleInfo[] = [];
      const errors: Error[] = [];
      let incomplete = false;
      for (const r of resolvers) {
        const one = r.rulesFor(user, namespace);
        resourceRules.push(...one.resourceRules);
        nonResourceRules.push(...one.nonResourceRules);
        incomplete ||= one.incomplete;
        errors.push(...one.errors);
      }
      return { resourceRules, nonResourceRules, incomplete, errors };
    },
  };
}
