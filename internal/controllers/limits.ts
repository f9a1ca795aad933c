/** How often the controller manager checks whether this replica leads (it then starts or stops controllers). */
export const leadershipPollMs = 200;

/** First wait before restarting a controller that threw or returned while still leader. */
export const restartBackoffMsMin = 100;

/** Longest wait between restarts of a failing controller. */
export const restartBackoffMsMax = 10_000;

/** How long stop() waits for aborted controllers to return before giving up on them. */
export const controllerStopWaitMs = 5_000;

/** Namespace controller: full resync period when no terminating namespace is waiting. */
export const namespaceResyncMs = 10_000;

/** Namespace controller: retry period while a terminating namespace still has content (e.g. finalizers). */
export const namespaceBusyResyncMs = 1_000;

/** Service allocation repair: time between passes (a leaked allocation goes after three passes that see it unheld). */
export const serviceAllocationRepairIntervalMs = 60_000;

/** Disruption controller: full resync period (budgets' status recomputed even without events). */
export const disruptionResyncMs = 10_000;

/** Disruption controller: how long it lets pod and budget events gather before a pass (events are batched, not handled one by one). */
export const disruptionBatchMs = 200;

/**
 * How long a pod an eviction recorded in a budget's status.disruptedPods counts as going (not
 * healthy) before the controller gives up on its deletion and drops it (upstream's DeletionTimeout).
 */
export const disruptedPodTimeoutMs = 2 * 60_000;

/** ClusterRole aggregation: full resync period (aggregated roles recomputed even without events). */
export const clusterRoleAggregationResyncMs = 30_000;

/** ClusterRole aggregation: how long ClusterRole events gather before a pass (bootstrap writes dozens at once). */
export const clusterRoleAggregationBatchMs = 100;

/**
 * Resource quota controller: full resync period (kube's --resource-quota-sync-period, 5 minutes):
 * the usage of kinds it does not watch is recounted then.
 */
export const resourceQuotaResyncMs = 5 * 60_000;

/** Resource quota controller: how long object events gather before a pass, and the wait after a lost race. */
export const resourceQuotaBatchMs = 200;

/** Service-account tokens controller: full resync period. */
export const legacyTokenResyncMs = 30_000;

/** Service-account tokens controller: how long Secret and ServiceAccount events gather before a pass. */
export const legacyTokenBatchMs = 50;

/** How often the CustomResourceDefinition controllers pass over every definition without a watch event. */
export const crdControllerResyncMs = 10_000;

/** How long CustomResourceDefinition events gather before a pass (a `kubectl apply` of many definitions). */
export const crdControllerBatchMs = 20;

/** The wait before the finalizer controller looks again at a definition whose objects are not all gone. */
export const crdFinalizerBusyResyncMs = 1_000;

/** How long FlowSchema and PriorityLevelConfiguration events gather before the Dangling conditions are checked. */
export const flowSchemaStatusBatchMs = 100;

/** How often the FlowSchema status controller checks every schema when nothing changed. */
export const flowSchemaStatusResyncMs = 5 * 60_000;
