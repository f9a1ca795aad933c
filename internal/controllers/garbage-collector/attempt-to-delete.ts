import { foregroundFinalizer, orphanFinalizer } from '../../registry/generic/delete.ts';
import type { KObject } from '../../registry/schema/declaration.ts';
import { cachedOwnerClass, classifyOwners } from './classify-owners.ts';
import type { CollectorContext } from './collector-context.ts';
import { deletingDependents, type GraphNode } from './object-graph.ts';
import { deleteWithPolicy, getByUid, removeOwnerReferences, unblockOwnerReferences } from './object-writes.ts';
import { ownerReferencesOf } from './owner-reference.ts';

function policyOf(obj: KObject): 'Orphan' | 'Foreground' | 'Background' {
  const finalizers = obj.metadata.finalizers ?? [];
  if (finalizers.includes(orphanFinalizer)) return 'Orphan';
  if (finalizers.includes(foregroundFinalizer)) return 'Foreground';
  return 'Background';
}

/**
 * A live object with owner references, decided on its latest stored version (a consistent get):
 * - any reference that cannot be checked (unknown kind, invalid namespace): left alone, reported once;
 * - some owner exists and does not wait for it: it stays, losing only references to absent
 *   owners and to owners deleting in the foreground (so they need not wait for it);
 * - otherwise it goes: in the foreground when an owner waits for it and it has dependents of its
 *   own (so the wait covers the whole chain; in a cycle it first stops blocking its owners),
 *   else with the policy its own finalizers ask for.
 * Every write is conditional on the version read, so a concurrent change only causes a retry.
 */
export async function attemptToDelete(ctx: CollectorContext, node: GraphNode): Promise<void> {
  // The common case, and every object after a rebuild: all owners live as far as the graph
  // knows. Nothing to do, and no reads (a later change of an owner queues this object again).
  if (node.owners.every((ref) => cachedOwnerClass(ctx, node.store, node.namespace, ref) === 'solid')) return;
  const latest = await getByUid(node.store, node.namespace, node.name, node.uid);
  if (!latest || latest.metadata.deletionTimestamp !== undefined) return;
  const refs = ownerReferencesOf(latest);
  if (refs.length === 0) return;
  const classes = await classifyOwners(ctx, node.store, latest, refs);
  if (classes.unresolvable.length > 0) {
    for (const { ref, why } of classes.unresolvable) {
      ctx.reportOnce(`${node.uid}/${ref.uid}`, `garbage collector: ${node.store.decl.kind} ${node.namespace ?? ''}/${node.name} keeps its owner reference to ${ref.kind} ${ref.name}: ${why}`);
    }
    return;
  }
  const identity = { store: node.store, namespace: node.namespace, name: node.name, uid: node.uid };
  if (classes.solid.length > 0) {
    const stale = new Set([...classes.dangling, ...classes.waiting].map((r) => r.uid));
    if (stale.size > 0) await removeOwnerReferences(identity, stale);
    return;
  }
  const rv = latest.metadata.resourceVersion ?? '';
  const ownDependents = ctx.graph.dependentsOf(node.uid);
  if (classes.waiting.length > 0 && ownDependents.length > 0) {
    // A dependent of ours already waits for its own dependents: an ownership cycle, or a race
    // that looks like one. Stop blocking our owners so the waits cannot deadlock (as Kubernetes).
    const unblocked = ownDependents.some(deletingDependents) && refs.some((r) => r.blockOwnerDeletion) ? await unblockOwnerReferences(identity) : rv;
    await deleteWithPolicy(identity, unblocked, 'Foreground');
    return;
  }
  await deleteWithPolicy(identity, rv, policyOf(latest));
}
