// Choosing among classes marked default (StorageClasses, IngressClasses): since kube 1.25/1.26 a
// second default no longer blocks creates; the newest wins, the lower name on a tie.
import type { KObject } from '../../../registry/schema/declaration.ts';

function createdMs(o: KObject): number {
  const ms = Date.parse(o.metadata.creationTimestamp ?? '');
  return Number.isNaN(ms) ? 0 : ms;
}

/** The newest of `classes` that `isDefault` accepts, or undefined when none is. */
export function newestDefault(classes: readonly KObject[], isDefault: (o: KObject) => boolean): KObject | undefined {
  let chosen: KObject | undefined;
  for (const candidate of classes) {
    if (!isDefault(candidate)) continue;
    if (chosen === undefined) {
      chosen = candidate;
      continue;
    }
    const [a, b] = [createdMs(candidate), createdMs(chosen)];
    if (a > b || (a === b && (candidate.metadata.name ?? '') < (chosen.metadata.name ?? ''))) chosen = candidate;
  }
  return chosen;
}
