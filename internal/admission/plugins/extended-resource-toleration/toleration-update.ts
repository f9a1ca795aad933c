// Adding one toleration to a pod spec as kube's helper.AddOrUpdateTolerationInPod does: a
// toleration matching it on key, operator, value and effect is replaced in place; an identical
// one leaves the spec untouched; otherwise it is appended.

/** A toleration as JSON carries it; absent fields are the empty string (and no seconds). */
export interface Toleration {
  key?: string;
  operator?: string;
  value?: string;
  effect?: string;
  tolerationSeconds?: number;
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function matches(a: Record<string, unknown>, b: Toleration): boolean {
  return text(a['key']) === text(b.key) && text(a['operator']) === text(b.operator) && text(a['value']) === text(b.value) && text(a['effect']) === text(b.effect);
}

function seconds(value: unknown): number | undefined {
  return typeof value === 'number' ? value : undefined;
}

/** Adds or updates `toleration` in `spec.tolerations`; returns whether the spec changed. */
export function addOrUpdateToleration(spec: Record<string, unknown>, toleration: Toleration): boolean {
  const current: unknown[] = Array.isArray(spec['tolerations']) ? spec['tolerations'] : [];
  const next: unknown[] = [];
  let updated = false;
  for (const existing of current) {
    const record = typeof existing === 'object' && existing !== null ? (existing as Record<string, unknown>) : {};
    if (matches(record, toleration)) {
      if (seconds(record['tolerationSeconds']) === toleration.tolerationSeconds) return false;
      next.push({ ...toleration });
      updated = true;
      continue;
    }
    next.push(existing);
  }
  if (!updated) next.push({ ...toleration });
  spec['tolerations'] = next;
  return true;
}
