import { finalizeNamespace, isTerminating, kubernetesFinalizer, namespaceStoresOf, rewriteNamespace } from '../registry/core/namespace-deletion.ts';
import { hasStatus } from '../registry/errors/status-error.ts';
import type { GenericStore } from '../registry/generic/store.ts';
import type { KObject } from '../registry/schema/declaration.ts';
import type { Controller, ControllerDeps } from './controller.ts';
import { controllerWrite } from './controller-identity.ts';
import { applyConditions, conditionsFor } from './namespace-conditions.ts';
import { deleteNamespaceContent, isEmpty } from './namespace-content.ts';
import { namespaceBusyResyncMs, namespaceResyncMs } from './limits.ts';
import { runWatchedLoop } from './watched-loop.ts';

/** Tuning of the namespace controller (tests shorten the periods). */
export interface NamespaceControllerOptions {
  readonly resyncIntervalMs?: number;
  readonly busyResyncIntervalMs?: number;
}

/** The name the namespace controller runs under (metrics, logs). */
export const namespaceControllerName = 'namespace';

/**
 * Finishes the deletion of one terminating namespace as far as it can now: deletes its content,
 * records the deletion conditions, and once empty removes the `kubernetes` finalizer (which
 * removes the namespace when no other finalizer remains). Returns true when nothing is left for
 * this controller to do.
 */
async function reconcile(deps: ControllerDeps, nsStore: GenericStore, namespaced: readonly GenericStore[], ns: KObject, signal: AbortSignal): Promise<boolean> {
  const name = ns.metadata.name ?? '';
  const summary = await deleteNamespaceContent(namespaced, name, signal);
  if (signal.aborted) return false;
  for (const [gr, err] of summary.failures) deps.log(`namespace ${name}: deleting ${gr} failed`, err);
  try {
    await rewriteNamespace(nsStore, name, (current) => applyConditions(current, conditionsFor(summary)), false);
    if (!isEmpty(summary)) return false;
    // kube's namespace controller PUTs the namespace's finalize sub-resource.
    const finalize = { verb: 'update', name, subresource: 'finalize', answer: (result: { object: KObject }) => [200, result.object] as const } as const;
    await controllerWrite(nsStore, finalize, () => finalizeNamespace(nsStore, name, (finalizers) => finalizers.filter((f) => f !== kubernetesFinalizer)));
    return true;
  } catch (err) {
    if (hasStatus(err, 404)) return true;
    if (hasStatus(err, 409)) return false;
    throw err;
  }
}

/** Lists the namespaces and reconciles every terminating one; returns true when some still wait. */
async function pass(deps: ControllerDeps, nsStore: GenericStore, namespaced: readonly GenericStore[], signal: AbortSignal): Promise<boolean> {
  const items = (await nsStore.list(undefined, {})).items;
  let waiting = false;
  for (const ns of items) {
    if (signal.aborted) return waiting;
    if (!isTerminating(ns)) continue;
    try {
      if (!(await reconcile(deps, nsStore, namespaced, ns, signal))) waiting = true;
    } catch (err) {
      deps.log(`namespace ${ns.metadata.name ?? ''}: deletion pass failed`, err);
      waiting = true;
    }
  }
  return waiting;
}

/**
 * The namespace controller: level-triggered (a list of namespaces, a watch that wakes it early,
 * and a periodic resync, faster while a namespace still waits for its content's finalizers).
 * For each terminating namespace it deletes the namespace's objects, sets the deletion
 * conditions, then removes the `kubernetes` spec finalizer so the namespace can go.
 */
export function createNamespaceController(deps: ControllerDeps, options: NamespaceControllerOptions = {}): Controller {
  const resyncMs = options.resyncIntervalMs ?? namespaceResyncMs;
  const busyMs = options.busyResyncIntervalMs ?? namespaceBusyResyncMs;
  return {
    name: namespaceControllerName,
    async run(signal) {
      const found = namespaceStoresOf(deps.registry, deps.stores);
      if (!found) throw new Error('assert: no namespaces store');
      const { namespaces: nsStore } = found;
      await runWatchedLoop({
        watched: [{ store: nsStore }],
        // The namespaced stores of the moment: custom kinds come and go with their definitions.
        pass: (passSignal) => pass(deps, nsStore, namespaceStoresOf(deps.registry, deps.stores)?.namespaced ?? [], passSignal),
        resyncMs,
        busyResyncMs: busyMs,
        batchMs: 0,
        failureMessage: 'namespace controller: list or watch failed',
        log: deps.log,
      }, signal);
    },
  };
}
