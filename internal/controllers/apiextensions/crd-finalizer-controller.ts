// The finalizer controller of kube's apiextensions-apiserver: a CustomResourceDefinition being
// deleted keeps its `customresourcecleanup` finalizer until every object of its kind is gone. The
// controller deletes them (each as a normal delete: objects with finalizers of their own wait for
// them), marks the definition's Terminating condition, and removes the finalizer once none remain.
import { hasStatus } from '../../registry/errors/status-error.ts';
import { GenericStore } from '../../registry/generic/store.ts';
import type { KObject } from '../../registry/schema/declaration.ts';
import { customResourceCleanupFinalizer, setCrdCondition, type CrdCondition } from '../../registry/apiextensions/crd-conditions.ts';
import { storageDeclaration } from '../../registry/apiextensions/custom-resource-declarations.ts';
import type { Controller, ControllerDeps } from '../controller.ts';
import { crdFinalizerBusyResyncMs } from '../limits.ts';
import { crdController } from './crd-controller.ts';

/** The controller's name, as logs and metrics show it. */
export const crdFinalizerName = 'crd-finalizer';

const manager = 'kube-apiserver';

/**
 * A store over every object of the definition's kind, at its storage version whether that is
 * served or not: the definition's own collection, never a served resource that happens to share
 * its names (a built-in kind the registry prefers).
 */
function kindStore(crdStore: GenericStore, crd: KObject): GenericStore | undefined {
  const decl = storageDeclaration(crd);
  if (decl === undefined) return undefined;
  return new GenericStore(crdStore.storage, { decl, group: decl.group, version: decl.version, apiVersion: `${decl.group}/${decl.version}` });
}

async function setCondition(store: GenericStore, crd: KObject, condition: CrdCondition): Promise<KObject> {
  const next = structuredClone(crd);
  if (!setCrdCondition(next, condition, new Date())) return crd;
  return (await store.update(undefined, crd.metadata.name ?? '', next, { fieldManager: manager, subresource: 'status' })).object;
}

/** Deletes what is left of the kind; resolves to how many objects remain (terminating ones included). */
async function deleteObjects(kind: GenericStore, signal: AbortSignal): Promise<number> {
  const objects = (await kind.list(undefined, {})).items;
  for (const obj of objects) {
    if (signal.aborted) break;
    if (obj.metadata.deletionTimestamp !== undefined) continue;
    try {
      await kind.delete(obj.metadata.namespace, obj.metadata.name ?? '', {});
    } catch (err) {
      if (!hasStatus(err, 404)) throw err;
    }
  }
  return (await kind.list(undefined, { limit: 1 })).items.length;
}

/** Finishes one terminating definition as far as it can; true when it still waits. */
async function finalize(store: GenericStore, crd: KObject, signal: AbortSignal): Promise<boolean> {
  const name = crd.metadata.name ?? '';
  let current = crd;
  const kind = kindStore(store, current);
  if (kind !== undefined) {
    current = await setCondition(store, current, { type: 'Terminating', status: 'True', reason: 'InstanceDeletionInProgress', message: 'CustomResource deletion is in progress' });
    const remaining = await deleteObjects(kind, signal);
    if (remaining > 0) return true;
  }
  current = await setCondition(store, current, { type: 'Terminating', status: 'False', reason: 'InstanceDeletionCompleted', message: 'removed all instances' });
  const next = structuredClone(current);
  next.metadata.finalizers = (next.metadata.finalizers ?? []).filter((f) => f !== customResourceCleanupFinalizer);
  await store.update(undefined, name, next, { fieldManager: manager });
  return false;
}

async function pass(deps: ControllerDeps, store: GenericStore, signal: AbortSignal): Promise<boolean> {
  const crds = (await store.list(undefined, {})).items;
  let waiting = false;
  for (const crd of crds) {
    if (signal.aborted) break;
    if (crd.metadata.deletionTimestamp === undefined || !(crd.metadata.finalizers ?? []).includes(customResourceCleanupFinalizer)) continue;
    try {
      waiting = (await finalize(store, crd, signal)) || waiting;
    } catch (err) {
      waiting = true;
      if (!hasStatus(err, 409) && !hasStatus(err, 404)) deps.log(`crd finalizer: ${crd.metadata.name ?? ''} not finalized yet`, err);
    }
  }
  return waiting;
}

/** The finalizer controller: deleted definitions take their objects with them. */
export function createCrdFinalizerController(deps: ControllerDeps): Controller {
  return crdController(deps, crdFinalizerName, (store, signal) => pass(deps, store, signal), crdFinalizerBusyResyncMs);
}
