// What both dispatchers share: the matching context, the client, metrics, a log, a clock, and
// the versioned view of the request's objects a webhook is sent.
import type { KObject } from '../../registry/schema/declaration.ts';
import type { AdmissionAttributes, GroupVersionKind } from '../attributes.ts';
import type { ReviewObjects } from './admission-review.ts';
import type { EquivalentResources } from './equivalents.ts';
import type { WebhookMetrics } from './metrics.ts';
import type { MatchingContext } from './should-call.ts';
import type { WebhookClientDeps } from './webhook-client.ts';
import type { WebhookInvocation } from './webhook-types.ts';

/** Everything a dispatcher reads besides the request. */
export interface DispatchContext extends MatchingContext {
  readonly client: WebhookClientDeps;
  readonly metrics: WebhookMetrics;
  /** Monotonic-enough milliseconds for latencies. */
  readonly clock: () => number;
}

function sameKind(a: GroupVersionKind, b: GroupVersionKind): boolean {
  return a.group === b.group && a.version === b.version && a.kind === b.kind;
}

/** `obj` (of kind `from`) as kind `to`: itself when they are the same, else converted. */
export function convertKind(obj: KObject | undefined, from: GroupVersionKind, to: GroupVersionKind, equivalents: EquivalentResources): KObject | undefined {
  if (obj === undefined || sameKind(from, to)) return obj;
  return equivalents.convert(obj, to);
}

/** The object and old object a webhook of `invocation` is sent (in its kind, which matchPolicy Equivalent may have changed). */
export function reviewObjects(invocation: WebhookInvocation, attributes: AdmissionAttributes, equivalents: EquivalentResources): ReviewObjects {
  return {
    object: convertKind(attributes.object, attributes.kind, invocation.kind, equivalents),
    oldObject: convertKind(attributes.oldObject, attributes.kind, invocation.kind, equivalents),
  };
}
