import type { GenericStore } from '../../registry/generic/store.ts';
import { foregroundFinalizer } from '../../registry/generic/delete.ts';
import type { KObject } from '../../registry/schema/declaration.ts';
import type { ObjectGraph } from './object-graph.ts';
import { getByUid } from './object-writes.ts';
import type { OwnerReference } from './owner-reference.ts';
import type { ResourceIndex } from './resource-index.ts';

/** A dependent's owner references sorted by what their owners are doing. */
export interface OwnerClasses {
  /** Owners that exist and are not deleting their dependents in the foreground. */
  readonly solid: OwnerReference[];
  /** Owners verified absent (no object of that kind, name and uid where the reference points). */
  readonly dangling: OwnerReference[];
  /** Owners that exist and wait, with `foregroundDeletion`, for their dependents to go. */
  readonly waiting: OwnerReference[];
  /** References the collector cannot check: an unknown kind, or a namespaced owner of a cluster-scoped dependent. */
  readonly unresolvable: { readonly ref: OwnerReference; readonly why: string }[];
}

/** What classification reads: the graph for the cache, the index to find owners' stores. */
export interface ClassifyContext {
  readonly graph: ObjectGraph;
  readonly index: ResourceIndex;
}

function isWaiting(obj: { metadata: { deletionTimestamp?: string; finalizers?: string[] } }): boolean {
  return obj.metadata.deletionTimestamp !== undefined && (obj.metadata.finalizers ?? []).includes(foregroundFinalizer);
}

/**
 * What the graph alone says of one owner reference of a dependent in `namespace`: 'solid' or
 * 'waiting' when it holds the owner where the reference points, undefined when it cannot tell.
 */
export function cachedOwnerClass(ctx: ClassifyContext, store: GenericStore, namespace: string | undefined, ref: OwnerReference): 'solid' | 'waiting' | undefined {
  const ownerStore = ctx.index.storeOfOwner(ref.apiVersion, ref.kind);
  const cached = ctx.graph.get(ref.uid);
  if (!ownerStore || !cached || cached.store.decl !== ownerStore.decl) return undefined;
  if (ownerStore.decl.namespaced && (!store.decl.namespaced || cached.namespace !== namespace)) return undefined;
  return cached.terminating && cached.finalizers.includes(foregroundFinalizer) ? 'waiting' : 'solid';
}

/**
 * Classifies the owner references of `dependent` (as just read from `store`). A namespaced
 * owner is looked for in the dependent's namespace, as Kubernetes does: one elsewhere counts as
 * absent. The cache (graph) answers "present"; "absent" is only believed after a consistent get
 * by kind and name, comparing uid, because the graph may lag behind a just-created owner.
 */
export async function classifyOwners(ctx: ClassifyContext, store: GenericStore, dependent: KObject, refs: readonly OwnerReference[]): Promise<OwnerClasses> {
  const out: OwnerClasses = { solid: [], dangling: [], waiting: [], unresolvable: [] };
  const namespace = store.decl.namespaced ? dependent.metadata.namespace : undefined;
  for (const ref of refs) {
    const ownerStore = ctx.index.storeOfOwner(ref.apiVersion, ref.kind);
    if (!ownerStore) {
      out.unresolvable.push({ ref, why: `no served resource has kind ${ref.kind} in ${ref.apiVersion}` });
      continue;
    }
    if (ownerStore.decl.namespaced && !store.decl.namespaced) {
      out.unresolvable.push({ ref, why: `a cluster-scoped ${store.decl.kind} cannot be owned by the namespaced ${ref.kind} (OwnerRefInvalidNamespace)` });
      continue;
    }
    const cached = cachedOwnerClass(ctx, store, namespace, ref);
    if (cached !== undefined) {
      out[cached].push(ref);
      continue;
    }
    const owner = await getByUid(ownerStore, ownerStore.decl.namespaced ? namespace : undefined, ref.name, ref.uid);
    if (owner === undefined) out.dangling.push(ref);
    else (isWaiting(owner) ? out.waiting : out.solid).push(ref);
  }
  return out;
}
