// Whether a webhook is called for a request, and as what (kube's generic Webhook.ShouldCallHook):
// selectors, then rules (with matchPolicy Equivalent, the rules against the resource's other
// group-versions), then the errors the selectors met, then matchConditions.
import { StatusError } from '../../registry/errors/status-error.ts';
import type { AdmissionAttributes } from '../attributes.ts';
import type { ObjectReader } from '../plugin.ts';
import type { EquivalentResources } from './equivalents.ts';
import type { MatchConditionEvaluator } from './match-conditions.ts';
import { ruleMatches } from './rules.ts';
import { matchNamespaceSelector, matchObjectSelector } from './selectors.ts';
import { ignoresCallFailures, type ConfiguredWebhook, type WebhookInvocation } from './webhook-types.ts';

/** What matching reads besides the request. */
export interface MatchingContext {
  readonly objects: ObjectReader;
  readonly equivalents: EquivalentResources;
  readonly matchConditions: MatchConditionEvaluator;
  readonly log: (message: string, err?: unknown) => void;
}

function sameResource(a: AdmissionAttributes['resource'], b: AdmissionAttributes['resource']): boolean {
  return a.group === b.group && a.version === b.version && a.resource === b.resource;
}

/** The first rule matching an equivalent resource, earlier rules first (kube's OuterLoop). */
function equivalentInvocation(webhook: ConfiguredWebhook, attributes: AdmissionAttributes, equivalents: EquivalentResources): WebhookInvocation | undefined {
  const candidates = equivalents.equivalentResourcesFor(attributes.resource, attributes.subresource).filter((r) => !sameResource(r, attributes.resource));
  for (const rule of webhook.spec.rules ?? []) {
    for (const resource of candidates) {
      if (!ruleMatches(rule, { ...attributes, resource })) continue;
      const kind = equivalents.kindFor(resource, attributes.subresource);
      if (kind === undefined) throw new StatusError(500, 'InternalError', `Internal error occurred: unable to convert to ${resource.group}/${resource.version}, Resource=${resource.resource}: unknown kind`);
      return { webhook, resource, subresource: attributes.subresource, kind };
    }
  }
  return undefined;
}

function forbiddenByConditions(attributes: AdmissionAttributes, err: Error): StatusError {
  const { group, resource } = attributes.resource;
  const qualified = group === '' ? resource : `${resource}.${group}`;
  return new StatusError(403, 'Forbidden', `${qualified} "${attributes.name}" is forbidden: ${err.message}`, { name: attributes.name, group, kind: resource });
}

/**
 * The invocation when `webhook` is to be called for the request, undefined when it is not.
 * Throws a StatusError when matching itself fails for a webhook whose rules match (its namespace
 * cannot be read: 404 or 500; its conditions fail to evaluate under failurePolicy Fail: 403).
 */
export async function shouldCallHook(webhook: ConfiguredWebhook, attributes: AdmissionAttributes, context: MatchingContext): Promise<WebhookInvocation | undefined> {
  const spec = webhook.spec;
  const namespaceMatch = await matchNamespaceSelector(spec, attributes, context.objects);
  if (namespaceMatch === false) return undefined;
  if (!matchObjectSelector(spec, attributes)) return undefined;
  let invocation: WebhookInvocation | undefined;
  if ((spec.rules ?? []).some((rule) => ruleMatches(rule, attributes))) {
    invocation = { webhook, resource: attributes.resource, subresource: attributes.subresource, kind: attributes.kind };
  } else if (spec.matchPolicy === 'Equivalent') {
    invocation = equivalentInvocation(webhook, attributes, context.equivalents);
  }
  if (invocation === undefined) return undefined;
  if (namespaceMatch instanceof StatusError) throw namespaceMatch;
  const conditions = spec.matchConditions ?? [];
  if (conditions.length === 0) return invocation;
  const verdict = await context.matchConditions.evaluate(conditions, attributes, spec);
  if ('error' in verdict) {
    if (!ignoresCallFailures(spec)) {
      context.log(`Failed evaluating match conditions, failing closed ${spec.name}`, verdict.error);
      throw forbiddenByConditions(attributes, verdict.error);
    }
    return undefined;
  }
  return verdict.matches ? invocation : undefined;
}
