// The naming and establishing controllers of kube's apiextensions-apiserver, as one level-triggered
// loop: every CustomResourceDefinition, oldest first, gets the names it may serve
// (status.acceptedNames), NamesAccepted, and Established once its names are accepted. Serving a
// kind waits for Established (registry/apiextensions/crd-serving.ts).
import { hasStatus } from '../../registry/errors/status-error.ts';
import type { GenericStore } from '../../registry/generic/store.ts';
import type { KObject } from '../../registry/schema/declaration.ts';
import { setCrdCondition } from '../../registry/apiextensions/crd-conditions.ts';
import type { Controller, ControllerDeps } from '../controller.ts';
import { acceptedNamesOf, crdGroup, decideNames, type AcceptedNames } from './crd-names.ts';
import { crdController } from './crd-controller.ts';

/** The controller's name, as logs and metrics show it. */
export const crdNamingName = 'crd-naming';

/** The field manager of its writes (kube-apiserver's own). */
const manager = 'kube-apiserver';

function byAge(a: KObject, b: KObject): number {
  const ta = a.metadata.creationTimestamp ?? '';
  const tb = b.metadata.creationTimestamp ?? '';
  return ta < tb ? -1 : ta > tb ? 1 : (a.metadata.name ?? '') < (b.metadata.name ?? '') ? -1 : 1;
}

/** One pass over every definition; a lost race waits for the event it caused. */
async function pass(deps: ControllerDeps, store: GenericStore, signal: AbortSignal): Promise<void> {
  const crds = (await store.list(undefined, {})).items.sort(byAge);
  // The names each definition holds, updated as this pass accepts new ones (older definitions first).
  const held = new Map<string, AcceptedNames>();
  for (const crd of crds) {
    const names = acceptedNamesOf(crd);
    if (names !== undefined) held.set(crd.metadata.name ?? '', names);
  }
  for (const crd of crds) {
    if (signal.aborted) return;
    const name = crd.metadata.name ?? '';
    const group = crdGroup(crd);
    const others = crds.filter((c) => c !== crd && crdGroup(c) === group).flatMap((c) => {
      const names = held.get(c.metadata.name ?? '');
      return names === undefined ? [] : [names];
    });
    const verdict = decideNames(crd, others);
    const next = structuredClone(crd);
    const status = (typeof next.status === 'object' && next.status !== null ? next.status : (next.status = {})) as Record<string, unknown>;
    const now = new Date();
    let changed = JSON.stringify(status.acceptedNames ?? null) !== JSON.stringify(verdict.acceptedNames);
    status.acceptedNames = verdict.acceptedNames;
    changed = setCrdCondition(next, verdict.namesAccepted, now) || changed;
    if (verdict.established !== undefined) changed = setCrdCondition(next, verdict.established, now) || changed;
    if (verdict.acceptedNames.plural !== '') held.set(name, verdict.acceptedNames);
    if (!changed) continue;
    try {
      await store.update(undefined, name, next, { fieldManager: manager, subresource: 'status' });
    } catch (err) {
      if (!hasStatus(err, 409) && !hasStatus(err, 404)) deps.log(`crd naming: ${name} not updated`, err);
    }
  }
}

/** The naming controller: names and conditions of every CustomResourceDefinition. */
export function createCrdNamingController(deps: ControllerDeps): Controller {
  return crdController(deps, crdNamingName, (store, signal) => pass(deps, store, signal));
}
