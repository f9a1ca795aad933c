// The API Priority and Fairness configuration kube-apiserver 1.28 keeps at start (its
// "priority-and-fairness-config-producer", pkg/registry/flowcontrol/ensurer): every bootstrap
// object is created when missing, with `apf.kubernetes.io/autoupdate-spec: "true"`. A mandatory
// object's spec is put back when it differs (the exempt level's spec.exempt excepted); a suggested
// one's only while its annotation says true (or, without a boolean there, while its generation is
// 1: nobody changed it). Several replicas may run this at once: a create that finds the object
// (409) or an update that loses a race (409) leaves the object to the write that won.
import { hasStatus } from '../errors/status-error.ts';
import type { GenericStore } from '../generic/store.ts';
import type { KObject } from '../schema/declaration.ts';
import { mandatoryFlowSchemas, mandatoryPriorityLevels, suggestedFlowSchemas, suggestedPriorityLevels, type BootstrapObject } from './bootstrap-configuration.ts';
import { goEqual } from './values.ts';

/** The annotation that says whether the server keeps an object's spec. */
export const autoUpdateAnnotation = 'apf.kubernetes.io/autoupdate-spec';

const fieldManager = 'api-priority-and-fairness-config-producer-v1';

/** The stores (their v1beta3 resources) the configuration is written through. */
export interface FlowControlStores {
  readonly flowSchemas: GenericStore;
  readonly priorityLevels: GenericStore;
}

/** strconv.ParseBool of the annotation, or undefined when it is not a boolean. */
function parseBool(value: string | undefined): boolean | undefined {
  if (value === undefined) return undefined;
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(value)) return true;
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(value)) return false;
  return undefined;
}

/** Whether the server may put a suggested object's spec back (the ensurer's shouldUpdateSpec). */
function mayUpdateSuggested(current: KObject): boolean {
  return parseBool(current.metadata.annotations?.[autoUpdateAnnotation]) ?? current.metadata.generation === 1;
}

async function ensureOne(store: GenericStore, wanted: BootstrapObject, mandatory: boolean): Promise<void> {
  let current: KObject;
  try {
    current = await store.get(undefined, wanted.name);
  } catch (err) {
    if (!hasStatus(err, 404)) throw err;
    try {
      await store.create(undefined, { metadata: { name: wanted.name, annotations: { [autoUpdateAnnotation]: 'true' } }, spec: structuredClone(wanted.spec) }, { fieldManager });
    } catch (createErr) {
      if (!hasStatus(createErr, 409)) throw createErr;
    }
    return;
  }
  if (!mandatory && !mayUpdateSuggested(current)) return;
  const currentSpec = (current.spec ?? {}) as Record<string, unknown>;
  // The exempt level's concurrency is the operator's to set (kube-apiserver 1.28 keeps it).
  const spec = wanted.name === 'exempt' && 'exempt' in currentSpec && 'exempt' in wanted.spec ? { ...structuredClone(wanted.spec), exempt: currentSpec.exempt } : structuredClone(wanted.spec);
  if (goEqual(currentSpec, spec) && current.metadata.annotations?.[autoUpdateAnnotation] === 'true') return;
  const metadata = { ...current.metadata, annotations: { ...(current.metadata.annotations ?? {}), [autoUpdateAnnotation]: 'true' } };
  try {
    await store.update(undefined, wanted.name, { ...current, metadata, spec }, { fieldManager });
  } catch (err) {
    if (!hasStatus(err, 409)) throw err;
  }
}

/** Makes (or puts back) every bootstrap object once; throws the first error that is not a lost race. */
export async function ensureFlowControlConfiguration(stores: FlowControlStores): Promise<void> {
  for (const pl of mandatoryPriorityLevels) await ensureOne(stores.priorityLevels, pl, true);
  for (const pl of suggestedPriorityLevels) await ensureOne(stores.priorityLevels, pl, false);
  for (const fs of mandatoryFlowSchemas) await ensureOne(stores.flowSchemas, fs, true);
  for (const fs of suggestedFlowSchemas) await ensureOne(stores.flowSchemas, fs, false);
}
