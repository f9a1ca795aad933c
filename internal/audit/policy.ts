// The audit.k8s.io/v1 Policy as orch holds it (k8s.io/apiserver pkg/apis/audit): levels, stages,
// rules. A rule's omitStages already include the policy's (kube's NewPolicyRuleEvaluator unions them).

/** How much of a request is recorded, from nothing to both bodies. */
export type Level = 'None' | 'Metadata' | 'Request' | 'RequestResponse';

/** When an event is written in a request's life. */
export type Stage = 'RequestReceived' | 'ResponseStarted' | 'ResponseComplete' | 'Panic';

/** The levels in increasing order. */
export const levels: readonly Level[] = ['None', 'Metadata', 'Request', 'RequestResponse'];

/** The stages kube knows. */
export const stages: readonly Stage[] = ['RequestReceived', 'ResponseStarted', 'ResponseComplete', 'Panic'];

/** Whether `level` records at least as much as `least` (kube's Level.GreaterOrEqual). */
export function levelAtLeast(level: Level, least: Level): boolean {
  return levels.indexOf(level) >= levels.indexOf(least);
}

/** One group's resources a rule names; empty `resources` is every resource of the group. */
export interface GroupResources {
  /** '' is the core group. */
  readonly group: string;
  /** `pods`, `pods/log`, `pods/*`, `*\/status`, `*`. */
  readonly resources: readonly string[];
  /** When not empty, only objects of these names match. */
  readonly resourceNames: readonly string[];
}

/** One rule; every list that is not empty must match. */
export interface PolicyRule {
  readonly level: Level;
  readonly users: readonly string[];
  readonly userGroups: readonly string[];
  readonly verbs: readonly string[];
  readonly resources: readonly GroupResources[];
  /** `""` matches cluster-scoped requests. */
  readonly namespaces: readonly string[];
  /** Paths, `*`, or a prefix ending in `*`. */
  readonly nonResourceURLs: readonly string[];
  /** The rule's stages with the policy's added. */
  readonly omitStages: readonly Stage[];
  /** The rule's own setting; undefined: the policy's. */
  readonly omitManagedFields: boolean | undefined;
}

/** A whole policy: rules tried in order, the first that matches decides. */
export interface Policy {
  readonly rules: readonly PolicyRule[];
  readonly omitStages: readonly Stage[];
  readonly omitManagedFields: boolean;
}

/** What the policy says about one request. */
export interface AuditConfig {
  readonly level: Level;
  readonly omitStages: readonly Stage[];
  readonly omitManagedFields: boolean;
}
