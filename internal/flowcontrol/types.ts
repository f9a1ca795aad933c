// The contract between the parts of API Priority and Fairness (kube-apiserver's
// k8s.io/apiserver/pkg/util/flowcontrol): classification (classify.ts: which FlowSchema and
// priority level a request lands in, and its flow), the configuration compiled from the
// FlowSchema and PriorityLevelConfiguration objects (configuration.ts), the work estimate
// (work-estimate.ts: how many seats a request occupies) and the queue set of each limited level
// (queue-set.ts: shuffle-sharded queues, fair queuing, seats). flow-control.ts ties them to the
// request path.
import type { UserInfo } from '../authn/user-info.ts';

/** What classification reads of a request (kube's RequestDigest: the user and the RequestInfo). */
export interface RequestDigest {
  readonly user: Pick<UserInfo, 'username' | 'groups'>;
  /** A resource request's attributes; undefined for a non-resource request. */
  readonly resource?: {
    readonly verb: string;
    /** '' for the core group. */
    readonly apiGroup: string;
    readonly resource: string;
    /** '' when none. */
    readonly subresource: string;
    /** '' for a cluster-scoped request (or all namespaces). */
    readonly namespace: string;
    readonly name: string;
  };
  /** A non-resource request's verb (lowercase HTTP method as kube's RequestInfo has it: get, post, ...) and path. */
  readonly nonResource?: { readonly verb: string; readonly path: string };
}

/** A priority level as compiled from its object. */
export interface PriorityLevel {
  readonly name: string;
  readonly uid: string;
  /** `Exempt`: requests run at once, never queued nor counted against a limit. */
  readonly exempt: boolean;
  /** Limited levels: spec.limited.nominalConcurrencyShares (v1beta3; 30 when unset). */
  readonly nominalConcurrencyShares: number;
  /** Limited levels: the seats this level may use (its nominal concurrency limit), at least 1. */
  readonly concurrencyLimit: number;
  /** Limited levels: spec.limited.limitResponse; `Reject` levels have no queues. */
  readonly queuing: QueuingConfig | null;
}

/** spec.limited.limitResponse.queuing, defaults applied. */
export interface QueuingConfig {
  readonly queues: number;
  readonly handSize: number;
  readonly queueLengthLimit: number;
}

/** A FlowSchema as compiled from its object, with what is needed to match requests. */
export interface FlowSchema {
  readonly name: string;
  readonly uid: string;
  readonly matchingPrecedence: number;
  /** spec.distinguisherMethod.type: `ByUser`, `ByNamespace`, or null (one flow). */
  readonly distinguisher: 'ByUser' | 'ByNamespace' | null;
  /** spec.priorityLevelConfiguration.name. */
  readonly priorityLevelName: string;
  /** Whether the request matches one of the schema's rules (subjects and resource or non-resource rules). */
  matches(digest: RequestDigest): boolean;
}

/** Where a request lands: its schema, its level, its flow. */
export interface Classification {
  readonly flowSchema: FlowSchema;
  readonly priorityLevel: PriorityLevel;
  /** The flow distinguisher: the user name (ByUser), the namespace (ByNamespace) or ''. */
  readonly flowDistinguisher: string;
}
