// The flow-control filter (kube-apiserver's WithPriorityAndFairness, or WithMaxInFlightLimit when
// --enable-priority-and-fairness=false), run after impersonation and before authorization, as
// DefaultBuildHandlerChain orders them. A refused request is answered as kube answers it: 429,
// `Retry-After: 1`, a plain-text body (Go's http.Error), never a Status.
import type { Cancellation } from '../../flowcontrol/cancellation.ts';
import type { UserInfo } from '../../authn/user-info.ts';
import type { Attributes } from '../../authz/authorizer.ts';
import type { FlowControl } from '../../flowcontrol/flow-control.ts';
import type { MaxInFlight } from '../../flowcontrol/max-inflight.ts';
import type { RequestDigest } from '../../flowcontrol/types.ts';
import { estimateSeats, maxSeatsOf, type ListQuery } from '../../flowcontrol/work-estimate.ts';

/** The group whose members max-in-flight always serves (kube: a super-admin or a loopback connection). */
const systemMasters = 'system:masters';

/** Verbs and subresources of long-running requests (kube's BasicLongRunningRequestCheck). */
const longRunningVerbs: ReadonlySet<string> = new Set(['watch', 'proxy']);
const longRunningSubresources: ReadonlySet<string> = new Set(['attach', 'exec', 'proxy', 'log', 'portforward']);

/** Read-only verbs (kube's nonMutatingRequestVerbs): the rest count against the mutating limit. */
const readOnlyVerbs: ReadonlySet<string> = new Set(['get', 'list', 'watch']);

/** A request refused by flow control: the handler answers it with tooManyRequestsText. */
export class TooManyRequestsError extends Error {
  readonly retryAfterSeconds = 1;
  constructor(readonly reason: string) {
    super('Too many requests, please try again later.');
  }
}

/** The body of the 429 (Go's http.Error writes the text and a newline). */
export const tooManyRequestsText = 'Too many requests, please try again later.\n';

/** The flow control a server applies: APF, or the two in-flight limits. */
export interface RequestFlowControl {
  readonly apf?: FlowControl;
  readonly maxInFlight?: MaxInFlight;
  /** The number of stored objects of a resource (the LIST work estimate), when known. */
  readonly objectCount: (apiGroup: string, resource: string) => number | undefined;
}

/** What the filter needs of the request. */
export interface FlowControlledRequest {
  readonly attributes: Attributes;
  readonly query: URLSearchParams;
  /** Sets a response header (the APF classification headers). */
  readonly setHeader: (name: string, value: string) => void;
  /** Aborts when the client leaves (a queued request is dropped). */
  readonly signal?: Cancellation;
}

function isLongRunning(attributes: Attributes): boolean {
  return attributes.resourceRequest && (longRunningVerbs.has(attributes.verb) || longRunningSubresources.has(attributes.subresource));
}

/** What the LIST work estimate reads of the query. */
function listQueryOf(query: URLSearchParams): ListQuery {
  const limit = Number(query.get('limit') ?? '');
  const optional = (name: string) => {
    const value = query.get(name);
    return value === null || value === '' ? {} : { [name]: value };
  };
  return {
    ...(Number.isSafeInteger(limit) && limit > 0 ? { limit } : {}),
    hasSelectors: (query.get('labelSelector') ?? '') !== '' || (query.get('fieldSelector') ?? '') !== '',
    ...optional('resourceVersion'),
    ...optional('resourceVersionMatch'),
    ...optional('continue'),
    ...(query.get('sendInitialEvents') === 'true' ? { sendInitialEvents: true } : {}),
  };
}

/** The digest classification reads. */
export function digestOf(user: UserInfo, attributes: Attributes): RequestDigest {
  if (!attributes.resourceRequest) return { user, nonResource: { verb: attributes.verb, path: attributes.path } };
  const { verb, apiGroup, resource, subresource, namespace, name } = attributes;
  return { user, resource: { verb, apiGroup, resource, subresource, namespace, name } };
}

/**
 * Admits the request, or throws TooManyRequestsError. Returns what to call once it is served
 * (a long-running request frees its seat once started: its initialization is what is bounded).
 */
export async function flowControlFilter(control: RequestFlowControl, request: FlowControlledRequest): Promise<() => void> {
  const { attributes } = request;
  const longRunning = isLongRunning(attributes);
  if (control.apf === undefined) return maxInFlightFilter(control.maxInFlight, attributes, longRunning);
  const digest = digestOf(attributes.user, attributes);
  const classification = control.apf.classify(digest);
  request.setHeader('X-Kubernetes-PF-FlowSchema-UID', classification.flowSchema.uid);
  request.setHeader('X-Kubernetes-PF-PriorityLevel-UID', classification.priorityLevel.uid);
  const seats = estimateSeats(digest, (group, resource) => control.objectCount(group, resource), listQueryOf(request.query), maxSeatsOf(classification.priorityLevel));
  const admitted = await control.apf.admit(classification, longRunning ? 1 : seats, request.signal);
  if (admitted.outcome === 'rejected') throw new TooManyRequestsError(admitted.reason);
  if (longRunning) {
    admitted.release();
    return () => undefined;
  }
  return admitted.release;
}

function maxInFlightFilter(limits: MaxInFlight | undefined, attributes: Attributes, longRunning: boolean): () => void {
  if (limits === undefined || longRunning) return () => undefined;
  const release = limits.tryAcquire(!readOnlyVerbs.has(attributes.verb));
  if (release !== null) return release;
  // Over the limit: a system:masters member is served anyway, uncounted, as kube does.
  if (attributes.user.groups.includes(systemMasters)) return () => undefined;
  throw new TooManyRequestsError('max-in-flight');
}
