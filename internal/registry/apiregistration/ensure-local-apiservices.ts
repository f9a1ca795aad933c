// The APIServices of the group versions this server serves itself, as kube-apiserver 1.28's
// autoregister controller keeps them (cmd/kube-apiserver/app/aggregator.go, makeAPIService):
// `<version>.<group>` (`v1.` for core), spec.group, spec.version and the priorities of
// apiVersionPriorities, labelled `kube-aggregator.kubernetes.io/automanaged: onstart`, with the
// Available condition kube-aggregator gives a local APIService. Created when missing and put back
// when their spec differs; several replicas may run this at once (a lost race, 409, is left to the
// write that won).
import { hasStatus } from '../errors/status-error.ts';
import type { GenericStore } from '../generic/store.ts';
import type { KObject } from '../schema/declaration.ts';
import { stableStringify } from '../generic/stable-json.ts';
import { apiServicePriority } from './apiservice-priorities.ts';

const fieldManager = 'kube-apiserver';
const automanagedLabel = 'kube-aggregator.kubernetes.io/automanaged';

/** A group version served here: the group as Kubernetes names it ('' for core). */
export interface LocalGroupVersion {
  readonly group: string;
  readonly version: string;
}

/** The APIService of a local group version, or undefined when upstream has no priority for it. */
export function localApiService(gv: LocalGroupVersion): KObject | undefined {
  const priority = apiServicePriority(gv.group, gv.version);
  if (priority === undefined) return undefined;
  return {
    apiVersion: 'apiregistration.k8s.io/v1',
    kind: 'APIService',
    metadata: { name: `${gv.version}.${gv.group}`, labels: { [automanagedLabel]: 'onstart' } },
    spec: { ...(gv.group === '' ? {} : { group: gv.group }), version: gv.version, groupPriorityMinimum: priority.group, versionPriority: priority.version },
  };
}

function isAvailableLocally(o: KObject): boolean {
  const conditions = (o.status as { conditions?: { type?: string; status?: string; reason?: string }[] } | undefined)?.conditions ?? [];
  return conditions.some((c) => c.type === 'Available' && c.status === 'True' && c.reason === 'Local');
}

async function ensureStatus(store: GenericStore, current: KObject): Promise<void> {
  if (isAvailableLocally(current)) return;
  const condition = { type: 'Available', status: 'True', lastTransitionTime: new Date().toISOString().replace(/\.\d+Z$/, 'Z'), reason: 'Local', message: 'Local APIServices are always available' };
  await store.update(undefined, current.metadata.name ?? '', { ...current, status: { conditions: [condition] } }, { fieldManager, subresource: 'status' });
}

async function ensureOne(store: GenericStore, wanted: KObject): Promise<void> {
  const name = wanted.metadata.name ?? '';
  let current: KObject;
  try {
    current = await store.get(undefined, name);
  } catch (err) {
    if (!hasStatus(err, 404)) throw err;
    current = await store.create(undefined, wanted, { fieldManager }).then((r) => r.object, async (createErr: unknown) => {
      if (!hasStatus(createErr, 409)) throw createErr;
      return store.get(undefined, name);
    });
  }
  if (stableStringify(current.spec) !== stableStringify(wanted.spec)) {
    current = (await store.update(undefined, name, { ...current, spec: wanted.spec, metadata: { ...current.metadata, labels: { ...(current.metadata.labels ?? {}), ...wanted.metadata.labels } } }, { fieldManager })).object;
  }
  await ensureStatus(store, current);
}

/** Makes (or puts back) the APIService of every local group version once; a lost race (409) is left to the winner. */
export async function ensureLocalApiServices(store: GenericStore, served: readonly LocalGroupVersion[]): Promise<void> {
  for (const gv of served) {
    const wanted = localApiService(gv);
    if (wanted === undefined) continue;
    try {
      await ensureOne(store, wanted);
    } catch (err) {
      if (!hasStatus(err, 409)) throw err;
    }
  }
}
