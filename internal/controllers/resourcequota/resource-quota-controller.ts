// The resource quota controller (kube-controller-manager's resourcequota controller): keeps every
// ResourceQuota's status current, status.hard copied from spec.hard and status.used recomputed from
// the objects of its namespace. Admission (the ResourceQuota plugin) enforces only what
// status.hard names and charges status.used as it admits; this controller sets the first and
// corrects the second (objects deleted, writes that failed after their charge).
import { hasStatus } from '../../registry/errors/status-error.ts';
import type { GenericStore } from '../../registry/generic/store.ts';
import type { ApiWatchEvent } from '../../registry/generic/watch.ts';
import type { KObject } from '../../registry/schema/declaration.ts';
import { evaluatorFor, isIgnoredResource } from '../../quota/registry.ts';
import { listsEqual, parseResourceList, resourceListToJson } from '../../quota/resource-list.ts';
import { calculateUsage, type ResourceObjects } from '../../quota/usage-stats.ts';
import type { Controller, ControllerDeps } from '../controller.ts';
import { resourceQuotaBatchMs, resourceQuotaResyncMs } from '../limits.ts';
import { runWatchedLoop } from '../watched-loop.ts';
import { storesByResource } from '../../registry/resource-registry.ts';

/** The controller's name, as logs and metrics show it. */
export const resourceQuotaControllerName = 'resourcequota';

/** The field manager of the status writes (kube-controller-manager's, whose controller this is). */
const manager = 'kube-controller-manager';

/** A namespaced resource quota can count, with its store (one per group and plural). */
interface CountedResource {
  readonly group: string;
  readonly resource: string;
  readonly store: GenericStore;
}

/** The stores of namespaced resources, one per group and plural (their first served version). */
function countedResources(deps: ControllerDeps): CountedResource[] {
  return [...storesByResource(deps.registry, deps.stores).values()]
    .filter((store) => store.decl.namespaced && !isIgnoredResource(store.gr.group, store.gr.resource) && (store.decl.verbs === undefined || store.decl.verbs.includes('list')))
    .map((store) => ({ group: store.gr.group, resource: store.gr.resource, store }));
}

function mapOf(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** The status the quota should have: hard as its spec says, used as its namespace's objects add up. */
async function desiredStatus(quota: KObject, resources: readonly CountedResource[], now: number): Promise<Record<string, unknown>> {
  const hardJson = mapOf(mapOf(quota.spec).hard);
  const hard = Object.keys(hardJson);
  const namespace = quota.metadata.namespace;
  const lists: ResourceObjects[] = [];
  for (const r of resources) {
    if (evaluatorFor(r.group, r.resource).matchingResources(hard).length === 0) continue;
    lists.push({ group: r.group, resource: r.resource, objects: (await r.store.list(namespace, {})).items });
  }
  const used = calculateUsage(quota, hard, lists, now);
  // What no evaluator measures keeps the use admission last charged (kube keeps the previous value).
  const previous = mapOf(mapOf(quota.status).used);
  const usedJson: Record<string, unknown> = {};
  for (const name of hard) {
    if (used.has(name)) continue;
    if (previous[name] !== undefined) usedJson[name] = previous[name];
  }
  return { hard: { ...hardJson }, used: { ...usedJson, ...resourceListToJson(used) } };
}

function sameStatus(quota: KObject, status: Record<string, unknown>): boolean {
  const current = mapOf(quota.status);
  return listsEqual(parseResourceList(current.hard), parseResourceList(status.hard)) && listsEqual(parseResourceList(current.used), parseResourceList(status.used));
}

/** One pass: every quota's status recomputed; a lost race (admission charged meanwhile) waits for the next pass. */
async function pass(deps: ControllerDeps, quotas: GenericStore, resources: readonly CountedResource[], signal: AbortSignal): Promise<boolean> {
  let lostRace = false;
  for (const quota of (await quotas.list(undefined, {})).items) {
    if (signal.aborted) return false;
    const status = await desiredStatus(quota, resources, Date.now());
    if (sameStatus(quota, status)) continue;
    try {
      await quotas.update(quota.metadata.namespace, quota.metadata.name ?? '', { ...quota, status }, { fieldManager: manager, subresource: 'status' });
    } catch (err) {
      if (hasStatus(err, 409)) lostRace = true;
      else if (!hasStatus(err, 404)) deps.log(`resource quota controller: status of ${quota.metadata.namespace ?? ''}/${quota.metadata.name ?? ''} not written`, err);
    }
  }
  return lostRace;
}

/**
 * Quota events that need a pass: a quota made, or its spec.hard no longer what its status says. Not
 * admission's charges (status.used only): a recount racing creates still being written would
 * lower status.used below what was admitted and let the next creates past the limit.
 */
function quotaNeedsPass(event: ApiWatchEvent): boolean {
  if (event.type !== 'MODIFIED') return event.type === 'ADDED';
  const quota = event.object as KObject;
  return !listsEqual(parseResourceList(mapOf(quota.spec).hard), parseResourceList(mapOf(quota.status).hard));
}

/** Object events that may release use (kube's replenishment): deletions and changes, not creates (admission charged those). */
function mayRelease(event: ApiWatchEvent): boolean {
  return event.type === 'DELETED' || event.type === 'MODIFIED';
}

/**
 * The resource quota controller. Level-triggered: each pass lists the quotas and, per quota, the
 * objects of its namespace it counts; watches on the quotas and on the resources quotas most often
 * count (pods, services, claims, config maps, secrets) wake it early, events gathered for a moment
 * first; a periodic resync covers the rest (`count/<resource>.<group>` of other kinds).
 */
export function createResourceQuotaController(deps: ControllerDeps, options: { readonly resyncIntervalMs?: number } = {}): Controller {
  return {
    name: resourceQuotaControllerName,
    async run(signal) {
      const served = deps.registry.find('', 'v1', 'resourcequotas');
      const quotas = served && deps.stores.get(served);
      if (quotas === undefined) throw new Error('assert: no resourcequotas store');
      const resources = countedResources(deps);
      const woken = resources.filter((r) => r.group === '' && ['pods', 'services', 'persistentvolumeclaims', 'configmaps', 'secrets', 'replicationcontrollers'].includes(r.resource));
      await runWatchedLoop({
        watched: [{ store: quotas, wakesOn: quotaNeedsPass }, ...woken.map((r) => ({ store: r.store, wakesOn: mayRelease }))],
        // The counted kinds of the moment: custom kinds come and go with their definitions.
        pass: (passSignal) => pass(deps, quotas, countedResources(deps), passSignal),
        resyncMs: options.resyncIntervalMs ?? resourceQuotaResyncMs,
        busyResyncMs: resourceQuotaBatchMs,
        batchMs: resourceQuotaBatchMs,
        failureMessage: 'resource quota controller: pass failed',
        log: deps.log,
      }, signal);
    },
  };
}
