import type { GenericStore } from '../../registry/generic/store.ts';
import { foregroundFinalizer, orphanFinalizer } from '../../registry/generic/delete.ts';
import type { KObject } from '../../registry/schema/declaration.ts';
import { ownerReferencesOf, type OwnerReference } from './owner-reference.ts';

/** What the collector knows of one object, as of the last event it applied. */
export interface GraphNode {
  readonly uid: string;
  readonly store: GenericStore;
  readonly namespace: string | undefined;
  readonly name: string;
  readonly resourceVersion: string;
  readonly owners: readonly OwnerReference[];
  readonly finalizers: readonly string[];
  /** deletionTimestamp is set. */
  readonly terminating: boolean;
}

/** The node of a stored object, or undefined when it has no uid (nothing could own or find it). */
export function nodeOf(store: GenericStore, obj: KObject): GraphNode | undefined {
  const uid = obj.metadata.uid;
  if (typeof uid !== 'string' || uid === '') return undefined;
  return {
    uid,
    store,
    namespace: store.decl.namespaced ? obj.metadata.namespace : undefined,
    name: obj.metadata.name ?? '',
    resourceVersion: obj.metadata.resourceVersion ?? '',
    owners: ownerReferencesOf(obj),
    finalizers: obj.metadata.finalizers ?? [],
    terminating: obj.metadata.deletionTimestamp !== undefined,
  };
}

/** True when the node waits for the collector to delete its dependents first. */
export function deletingDependents(node: GraphNode): boolean {
  return node.terminating && node.finalizers.includes(foregroundFinalizer);
}

/** True when the node waits for the collector to orphan its dependents first. */
export function orphaningDependents(node: GraphNode): boolean {
  return node.terminating && node.finalizers.includes(orphanFinalizer);
}

/** True when the collector has something to do about the node now (processItem's cases). */
export function needsAttention(node: GraphNode): boolean {
  return deletingDependents(node) || orphaningDependents(node) || (!node.terminating && node.owners.length > 0);
}

/**
 * Every object by uid, and the dependents of every owner uid (whether or not the owner exists:
 * a dependent of a vanished owner is exactly what background collection looks for). Methods
 * return the uids whose handling the change may affect, for the work queue.
 */
export class ObjectGraph {
  private readonly nodes = new Map<string, GraphNode>();
  private readonly dependents = new Map<string, Set<string>>();

  /** The node of `uid`, if the object exists as of the last applied event. */
  get(uid: string): GraphNode | undefined {
    return this.nodes.get(uid);
  }

  /** Every node, in no particular order. */
  all(): IterableIterator<GraphNode> {
    return this.nodes.values();
  }

  /** The existing objects that name `ownerUid` in their ownerReferences. */
  dependentsOf(ownerUid: string): GraphNode[] {
    const out: GraphNode[] = [];
    for (const uid of this.dependents.get(ownerUid) ?? []) {
      const node = this.nodes.get(uid);
      if (node) out.push(node);
    }
    return out;
  }

  /**
   * Records a created or updated object; affected: its old and new owners, and the object itself
   * when it needs the collector (most objects own nothing and are owned by nothing: queueing each
   * for a worker that finds nothing to do cost the leader's every write).
   */
  upsert(node: GraphNode): string[] {
    const old = this.nodes.get(node.uid);
    if (old) this.unlink(old);
    this.nodes.set(node.uid, node);
    for (const ref of node.owners) {
      const set = this.dependents.get(ref.uid) ?? new Set<string>();
      set.add(node.uid);
      this.dependents.set(ref.uid, set);
    }
    return [...(needsAttention(node) ? [node.uid] : []), ...(old?.owners ?? []).map((r) => r.uid), ...node.owners.map((r) => r.uid)];
  }

  /** Records a removed object; affected: its owners (one may wait for it) and its dependents (now orphans). */
  remove(uid: string): string[] {
    const old = this.nodes.get(uid);
    if (!old) return [];
    this.unlink(old);
    this.nodes.delete(uid);
    return [...old.owners.map((r) => r.uid), ...(this.dependents.get(uid) ?? [])];
  }

  private unlink(node: GraphNode): void {
    for (const ref of node.owners) {
      const set = this.dependents.get(ref.uid);
      if (!set) continue;
      set.delete(node.uid);
      if (set.size === 0) this.dependents.delete(ref.uid);
    }
  }
}
