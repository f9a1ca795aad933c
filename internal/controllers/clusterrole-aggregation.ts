import { aggregationUpdate } from '../authz/rbac/aggregation.ts';
import { hasStatus } from '../registry/errors/status-error.ts';
import type { GenericStore } from '../registry/generic/store.ts';
import type { Controller, ControllerDeps } from './controller.ts';
import { clusterRoleAggregationBatchMs, clusterRoleAggregationResyncMs } from './limits.ts';
import { runWatchedLoop } from './watched-loop.ts';

/** The controller's name, as logs and metrics show it (kube-controller-manager's). */
export const clusterRoleAggregationName = 'clusterrole-aggregation';

/** The field manager of its writes (kube-controller-manager's, whose controller this is). */
const manager = 'clusterrole-aggregation-controller';

/** Tuning (tests shorten the resync). */
export interface ClusterRoleAggregationOptions {
  readonly resyncIntervalMs?: number;
}

function clusterRolesOf(deps: ControllerDeps): GenericStore {
  const served = deps.registry.find(`rbac.authorization.${deps.registry.apiDomain}`, 'v1', 'clusterroles');
  const store = served && deps.stores.get(served);
  if (store === undefined) throw new Error('assert: no clusterroles store');
  return store;
}

/** One pass: every ClusterRole with an aggregationRule gets the rules of the roles it selects; a lost race waits for the next pass. */
async function pass(deps: ControllerDeps, store: GenericStore, signal: AbortSignal): Promise<void> {
  const roles = (await store.list(undefined, {})).items;
  for (const role of roles) {
    if (signal.aborted) return;
    const updated = aggregationUpdate(role, roles);
    if (updated === null) continue;
    try {
      // Pinned to the version read: a role changed meanwhile is recomputed on the pass its event wakes.
      await store.update(undefined, role.metadata.name ?? '', updated as typeof role, { fieldManager: manager });
    } catch (err) {
      if (!hasStatus(err, 409) && !hasStatus(err, 404)) deps.log(`clusterrole aggregation: ${role.metadata.name ?? ''} not updated`, err);
    }
  }
}

/**
 * The ClusterRole aggregation controller (kube-controller-manager 1.28's clusterrole-aggregation):
 * on any ClusterRole change, every ClusterRole with an aggregationRule (admin, edit, view and any
 * user-made one) is given the rules of the ClusterRoles its selectors match. Level-triggered: each
 * pass lists all ClusterRoles; a watch wakes it early (events batched), and it resyncs periodically.
 */
export function createClusterRoleAggregationController(deps: ControllerDeps, options: ClusterRoleAggregationOptions = {}): Controller {
  const resyncMs = options.resyncIntervalMs ?? clusterRoleAggregationResyncMs;
  return {
    name: clusterRoleAggregationName,
    async run(signal) {
      const store = clusterRolesOf(deps);
      await runWatchedLoop({
        watched: [{ store }],
        pass: (passSignal) => pass(deps, store, passSignal),
        resyncMs,
        batchMs: clusterRoleAggregationBatchMs,
        failureMessage: 'clusterrole aggregation: pass failed',
        log: deps.log,
      }, signal);
    },
  };
}
