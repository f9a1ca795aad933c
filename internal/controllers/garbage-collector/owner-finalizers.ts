import { foregroundFinalizer, orphanFinalizer } from '../../registry/generic/delete.ts';
import type { CollectorContext } from './collector-context.ts';
import type { GraphNode } from './object-graph.ts';
import { ignoreNotFound, removeFinalizer, removeOwnerReferences } from './object-writes.ts';

/**
 * An owner terminating with `foregroundDeletion`: its dependents are queued (each then finds
 * its owner waiting and is deleted), and the finalizer goes once no dependent that blocks the
 * owner (blockOwnerDeletion=true) exists any more. Non-blocking dependents are deleted too, but
 * not waited for, as in Kubernetes.
 */
export async function processForegroundOwner(ctx: CollectorContext, owner: GraphNode): Promise<void> {
  const dependents = ctx.graph.dependentsOf(owner.uid);
  const blocking = dependents.filter((d) => d.owners.some((r) => r.uid === owner.uid && r.blockOwnerDeletion));
  // Terminating dependents are on their way; their removal queues this owner again.
  for (const d of dependents) if (!d.terminating) ctx.queue.add(d.uid);
  if (blocking.length > 0) return;
  await removeFinalizer(owner, foregroundFinalizer);
}

/**
 * An owner terminating with `orphan`: every dependent loses its references to the owner, then the
 * finalizer goes (which removes the owner when it was the last). The graph holds every object up
 * to the owner's terminating event (one ordered stream), so no dependent that existed then is missed.
 */
export async function processOrphanOwner(ctx: CollectorContext, owner: GraphNode): Promise<void> {
  const uids = new Set([owner.uid]);
  for (const d of ctx.graph.dependentsOf(owner.uid)) await ignoreNotFound(removeOwnerReferences(d, uids));
  await removeFinalizer(owner, orphanFinalizer);
}
