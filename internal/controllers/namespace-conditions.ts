import type { KObject } from '../registry/schema/declaration.ts';
import { nowTimestamp } from '../registry/generic/object-lifecycle.ts';
import type { ContentSummary } from './namespace-content.ts';

/** A status condition of a namespace, as Kubernetes' namespace controller writes them. */
export interface NamespaceCondition {
  type: string;
  status: 'True' | 'False';
  reason: string;
  message: string;
  lastTransitionTime?: string;
}

function describe(map: ReadonlyMap<string, number>, suffix: string): string {
  return [...map].sort(([a], [b]) => a.localeCompare(b)).map(([k, n]) => `${k}${suffix} ${n} resource instances`).join(', ');
}

/** The deletion conditions that describe `summary` (without transition times). */
export function conditionsFor(summary: ContentSummary): NamespaceCondition[] {
  const failed = [...summary.failures].map(([gr, err]) => `${gr}: ${err instanceof Error ? err.message : String(err)}`).sort();
  return [
    failed.length > 0
      ? { type: 'NamespaceDeletionContentFailure', status: 'True', reason: 'ContentDeletionFailed', message: `Failed to delete all resource types, ${failed.length} remaining: ${failed.join(', ')}` }
      : { type: 'NamespaceDeletionContentFailure', status: 'False', reason: 'ContentDeleted', message: 'All content successfully deleted, may be waiting on finalization' },
    summary.remaining.size > 0
      ? { type: 'NamespaceContentRemaining', status: 'True', reason: 'SomeResourcesRemain', message: `Some resources are remaining: ${describe(summary.remaining, ' has')}` }
      : { type: 'NamespaceContentRemaining', status: 'False', reason: 'ContentRemoved', message: 'All content successfully removed' },
    summary.finalizers.size > 0
      ? { type: 'NamespaceFinalizersRemaining', status: 'True', reason: 'SomeFinalizersRemain', message: `Some content in the namespace has finalizers remaining: ${describe(summary.finalizers, ' in')}` }
      : { type: 'NamespaceFinalizersRemaining', status: 'False', reason: 'ContentHasNoFinalizers', message: 'All content-preserving finalizers finished' },
  ];
}

/**
 * Puts `wanted` into the namespace's status.conditions (other conditions kept), keeping a
 * condition's lastTransitionTime while its status stays the same; also sets phase Terminating.
 */
export function applyConditions(ns: KObject, wanted: readonly NamespaceCondition[], now: Date = new Date()): void {
  const status = { ...(ns.status as Record<string, unknown> | undefined) };
  const existing = Array.isArray(status.conditions) ? (status.conditions as NamespaceCondition[]) : [];
  const byType = new Map(existing.map((c) => [c.type, c]));
  for (const w of wanted) {
    const old = byType.get(w.type);
    const lastTransitionTime = old !== undefined && old.status === w.status && old.lastTransitionTime !== undefined ? old.lastTransitionTime : nowTimestamp(now);
    byType.set(w.type, { ...w, lastTransitionTime });
  }
  status.phase = 'Terminating';
  status.conditions = [...byType.values()];
  ns.status = status;
}
