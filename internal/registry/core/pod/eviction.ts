// pods/eviction, as kube-apiserver 1.28's EvictionREST (pkg/registry/core/pod/storage/eviction.go):
// a delete that honours the PodDisruptionBudget covering the pod. Pods not running yet, terminal
// or terminating go at once; a running pod's budget must allow a disruption, which the eviction
// spends (disruption-budgets.ts) before deleting the pod with the Eviction's DeleteOptions.
import type { KObject } from '../../schema/declaration.ts';
import { badRequest, conflict, hasStatus, invalid, type GroupResource } from '../../errors/status-error.ts';
import type { DeleteOptions, GenericStore } from '../../generic/store.ts';
import { successStatus, type SubresourceReply } from '../../generic/subresource-store.ts';
import { checkDeleteOptions } from '../../generic/delete.ts';
import { field } from '../../schema/printers.ts';
import { budgetBeingProcessed, budgetsCovering, checkAndDecrement } from './disruption-budgets.ts';
import { evictionRetriesMax } from './limits.ts';
import { isPodReady, podPhase, setPodCondition } from './pod-conditions.ts';

/** The stores an eviction acts through. */
export interface EvictionStores {
  readonly pods: GenericStore;
  readonly budgets: GenericStore;
}

/** What the eviction's request says beyond its body. */
export interface EvictionRequest {
  readonly namespace: string | undefined;
  readonly name: string;
  /** The request's dryRun query (CreateOptions.dryRun), validated already. */
  readonly dryRun: boolean;
}

/** The field manager of the DisruptionTarget condition an eviction writes. */
const evictionManager = 'orch-apiserver';

/** How upstream's condition update names the pod in its precondition conflicts. */
const podKind: GroupResource = { group: '', resource: 'Pod' };

interface RequestedDeleteOptions {
  gracePeriodSeconds?: number;
  preconditions?: { uid?: string; resourceVersion?: string };
  propagationPolicy?: string;
  orphanDependents?: boolean;
  dryRun?: string[];
}

/**
 * The Eviction's DeleteOptions with the request's dryRun merged in (upstream's propagateDryRun:
 * either may say it; both are `All` when set). The body was decoded against the Eviction schema,
 * so the fields have their types.
 */
function deleteOptionsOf(eviction: KObject, requestDryRun: boolean): DeleteOptions {
  const given = (field(eviction, 'deleteOptions') ?? {}) as RequestedDeleteOptions;
  const bodyDryRun = given.dryRun ?? [];
  if (bodyDryRun.some((v) => v !== 'All')) {
    const values = bodyDryRun.map((v) => JSON.stringify(v)).join(', ');
    throw invalid('DeleteOptions', 'meta.k8s.io', '', [{ reason: 'FieldValueNotSupported', field: 'dryRun', message: `Unsupported value: []string{${values}}: supported values: "All"` }]);
  }
  const uid = given.preconditions?.uid;
  const resourceVersion = given.preconditions?.resourceVersion;
  const grace = given.gracePeriodSeconds;
  const options: DeleteOptions = {
    dryRun: requestDryRun || bodyDryRun.length > 0,
    ...(grace === undefined || grace === null ? {} : { gracePeriodSeconds: grace < 0 ? 1 : grace }),
    ...(given.propagationPolicy ? { propagationPolicy: given.propagationPolicy } : {}),
    ...(given.orphanDependents === undefined || given.orphanDependents === null ? {} : { orphanDependents: given.orphanDependents }),
    ...(uid || resourceVersion ? { preconditions: { ...(uid ? { uid } : {}), ...(resourceVersion ? { resourceVersion } : {}) } } : {}),
  };
  // Checked before anything is written: the pod's DisruptionTarget condition goes in before the delete.
  checkDeleteOptions(options);
  return options;
}

const resourceVersionUnset = (opts: DeleteOptions): boolean => !opts.preconditions?.resourceVersion;

function withResourceVersion(opts: DeleteOptions, resourceVersion: string | undefined): DeleteOptions {
  return { ...opts, preconditions: { ...opts.preconditions, ...(resourceVersion ? { resourceVersion } : {}) } };
}

/** canIgnorePDB: a pod that is not running yet, terminal or terminating goes without a budget check. */
function canIgnoreBudget(pod: KObject): boolean {
  const phase = podPhase(pod);
  return phase === 'Succeeded' || phase === 'Failed' || phase === 'Pending' || pod.metadata.deletionTimestamp !== undefined;
}

/** shouldEnforceResourceVersion: whether the delete must be of the very pod read (it may become ready meanwhile). */
function shouldEnforceResourceVersion(pod: KObject): boolean {
  const phase = podPhase(pod);
  return !(phase === 'Succeeded' || phase === 'Failed' || pod.metadata.deletionTimestamp !== undefined);
}

/**
 * Marks the pod DisruptionTarget (reason EvictionByEvictionAPI) through its status, then deletes
 * it (upstream's addConditionAndDeletePod). A resourceVersion precondition is checked against the
 * condition's write and then moved to the version that write made.
 */
async function markAndDelete(pods: GenericStore, namespace: string | undefined, name: string, opts: DeleteOptions): Promise<void> {
  let options = opts;
  if (!opts.dryRun) {
    const { object } = await pods.patch(
      namespace,
      name,
      (latest) => {
        const p = opts.preconditions;
        if (p?.uid && p.uid !== latest.metadata.uid) {
          throw conflict(podKind, name, `the UID in the precondition (${p.uid}) does not match the UID in record (${latest.metadata.uid ?? ''}). The object might have been deleted and then recreated`);
        }
        if (p?.resourceVersion && p.resourceVersion !== latest.metadata.resourceVersion) {
          throw conflict(podKind, name, `the ResourceVersion in the precondition (${p.resourceVersion}) does not match the ResourceVersion in record (${latest.metadata.resourceVersion ?? ''}). The object might have been modified`);
        }
        setPodCondition(latest, { type: 'DisruptionTarget', status: 'True', reason: 'EvictionByEvictionAPI', message: 'Eviction API: evicting' });
        return latest;
      },
      { fieldManager: evictionManager, subresource: 'status' },
    );
    if (!resourceVersionUnset(opts)) options = withResourceVersion(opts, object.metadata.resourceVersion);
  }
  await pods.delete(namespace, name, options);
}

/** The first step: a pod that needs no budget check is deleted at once (retrying lost races unless pinned). */
async function deleteIfBudgetIgnored(pods: GenericStore, req: EvictionRequest, original: DeleteOptions): Promise<{ pod: KObject; deleted: boolean }> {
  for (let attempt = 1; ; attempt++) {
    const pod = await pods.get(req.namespace, req.name);
    if (!canIgnoreBudget(pod)) return { pod, deleted: false };
    const opts = shouldEnforceResourceVersion(pod) && resourceVersionUnset(original) ? withResourceVersion(original, pod.metadata.resourceVersion) : original;
    try {
      await markAndDelete(pods, req.namespace, req.name, opts);
      return { pod, deleted: true };
    } catch (err) {
      if (!hasStatus(err, 409) || !resourceVersionUnset(original) || attempt >= evictionRetriesMax) throw err;
    }
  }
}

/**
 * Evicts the pod: 201 Status Success once it is deleted (or would be, on dry run); 404 when the
 * pod does not exist; 429 TooManyRequests (cause DisruptionBudget) when its budget allows no
 * disruption now, the pod left in place; and, as upstream, a 201 carrying a Failure Status with
 * code 500 when more than one budget covers the pod (clients read it as a 500 error).
 */
export async function evictPod(stores: EvictionStores, req: EvictionRequest, eviction: KObject): Promise<SubresourceReply> {
  if (eviction.metadata.name !== req.name) throw badRequest('name in URL does not match name in Eviction object');
  const original = deleteOptionsOf(eviction, req.dryRun);
  const { pod, deleted } = await deleteIfBudgetIgnored(stores.pods, req, original);
  if (deleted) return { code: 201, object: successStatus(201) };
  const budgets = await budgetsCovering(stores.budgets, pod);
  if (budgets.length > 1) {
    const message = 'This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.';
    return { code: 201, object: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, code: 500 } };
  }
  let opts = original;
  const [pdb] = budgets;
  if (pdb !== undefined) {
    const unhealthyGoesFree = !isPodReady(pod) && unhealthyPodMayGo(pdb);
    // An unready pod's delete is pinned to the version read: it must not have become ready since.
    if (unhealthyGoesFree) opts = withResourceVersion(original, pod.metadata.resourceVersion);
    else await checkAndDecrement(stores.budgets, pdb, req.name, original.dryRun === true);
    try {
      await markAndDelete(stores.pods, req.namespace, req.name, opts);
    } catch (err) {
      // The unready pod changed since it was read (it may be ready now): the client tries again.
      if (hasStatus(err, 409) && unhealthyGoesFree && resourceVersionUnset(original)) throw budgetBeingProcessed(pdb.metadata.name ?? '');
      throw err;
    }
    return { code: 201, object: successStatus(201) };
  }
  await markAndDelete(stores.pods, req.namespace, req.name, opts);
  return { code: 201, object: successStatus(201) };
}

/**
 * Whether an unready pod may go without spending a disruption: the budget's
 * unhealthyPodEvictionPolicy is AlwaysAllow, or (IfHealthyBudget, the default) the budget is met.
 */
function unhealthyPodMayGo(pdb: KObject): boolean {
  if (field(pdb, 'spec.unhealthyPodEvictionPolicy') === 'AlwaysAllow') return true;
  const current = Number(field(pdb, 'status.currentHealthy') ?? 0);
  const desired = Number(field(pdb, 'status.desiredHealthy') ?? 0);
  return current >= desired && desired > 0;
}
