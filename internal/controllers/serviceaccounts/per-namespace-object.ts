// The loop both service-account controllers share (kube-controller-manager's serviceaccounts
// controller and root-ca-cert-publisher keep one named object in every namespace): level-triggered,
// each pass lists the namespaces and the objects of that name, creates the missing ones and
// repairs the changed ones. Watches on both wake it early (events gathered for a moment), and it
// resyncs periodically. Namespaces being deleted are left alone: the namespace controller is
// emptying them, and the store refuses new objects there.
import { refusesNewContent } from '../../registry/core/namespace-deletion.ts';
import { hasStatus } from '../../registry/errors/status-error.ts';
import type { GenericStore } from '../../registry/generic/store.ts';
import type { KObject } from '../../registry/schema/declaration.ts';
import type { Controller, ControllerDeps } from '../controller.ts';
import { runWatchedLoop } from '../watched-loop.ts';
import { perNamespaceBatchMs, perNamespaceResyncMs } from './limits.ts';

/** The field manager of the controllers' writes (kube-controller-manager's, whose controllers these are). */
export const controllerManagerFieldManager = 'kube-controller-manager';

/** What one per-namespace controller keeps. */
export interface PerNamespaceObject {
  /** The controller's name (logs, metrics). */
  readonly controllerName: string;
  /** The core/v1 plural of the kept object's kind. */
  readonly plural: string;
  /** The kept object's name in every namespace. */
  readonly objectName: string;
  /** The object to create where it is missing (without namespace). */
  desired(): KObject;
  /** The object with what the controller owns restored, or undefined when nothing needs restoring. */
  repaired?(current: KObject): KObject | undefined;
  /** Full resync period (tests shorten it). */
  readonly resyncIntervalMs?: number;
}

function coreStore(deps: ControllerDeps, plural: string): GenericStore {
  const served = deps.registry.find('', 'v1', plural);
  const store = served && deps.stores.get(served);
  if (store === undefined) throw new Error(`assert: no ${plural} store`);
  return store;
}

/** Writes what one namespace lacks; a lost race (409), a vanished or closing namespace (404, 403) waits for the next pass. */
async function reconcile(deps: ControllerDeps, spec: PerNamespaceObject, store: GenericStore, namespace: string, current: KObject | undefined): Promise<void> {
  const options = { fieldManager: controllerManagerFieldManager };
  try {
    if (current === undefined) {
      const desired = spec.desired();
      await store.create(namespace, { ...desired, metadata: { ...desired.metadata, namespace } }, options);
      return;
    }
    const repaired = spec.repaired?.(current);
    if (repaired !== undefined) await store.update(namespace, spec.objectName, repaired, options);
  } catch (err) {
    if (hasStatus(err, 409) || hasStatus(err, 404) || hasStatus(err, 403)) return;
    deps.log(`${spec.controllerName} controller: ${spec.plural} ${namespace}/${spec.objectName} not written`, err);
  }
}

/** One pass over every namespace. */
async function pass(deps: ControllerDeps, spec: PerNamespaceObject, stores: { namespaces: GenericStore; objects: GenericStore }, signal: AbortSignal): Promise<void> {
  const namespaces = (await stores.namespaces.list(undefined, {})).items;
  const named = await stores.objects.list(undefined, { fieldSelector: `metadata.name=${spec.objectName}` });
  const byNamespace = new Map(named.items.map((o) => [o.metadata.namespace ?? '', o]));
  for (const ns of namespaces) {
    if (signal.aborted) return;
    if (refusesNewContent(ns)) continue;
    const name = ns.metadata.name ?? '';
    await reconcile(deps, spec, stores.objects, name, byNamespace.get(name));
  }
}

/** A controller keeping `spec`'s object in every namespace that is not being deleted. */
export function perNamespaceObjectController(deps: ControllerDeps, spec: PerNamespaceObject): Controller {
  const resyncMs = spec.resyncIntervalMs ?? perNamespaceResyncMs;
  return {
    name: spec.controllerName,
    async run(signal) {
      const stores = { namespaces: coreStore(deps, 'namespaces'), objects: coreStore(deps, spec.plural) };
      await runWatchedLoop({
        watched: [{ store: stores.namespaces }, { store: stores.objects, fieldSelector: `metadata.name=${spec.objectName}` }],
        pass: (passSignal) => pass(deps, spec, stores, passSignal),
        resyncMs,
        batchMs: perNamespaceBatchMs,
        failureMessage: `${spec.controllerName} controller: pass failed`,
        log: deps.log,
      }, signal);
    },
  };
}
