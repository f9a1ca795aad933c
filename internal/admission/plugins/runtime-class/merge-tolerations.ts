// kube's tolerations.MergeTolerations: the pod's tolerations then the RuntimeClass's, without
// those another one already covers (a toleration that tolerates a superset of what a second one
// does makes the second redundant; of two equal ones the first stays).
import { isDeepStrictEqual } from 'node:util';

/** A toleration as the merge reads it; absent strings are '' as in Go. */
interface Toleration {
  readonly key: string;
  readonly operator: string;
  readonly value: string;
  readonly effect: string;
  readonly tolerationSeconds: number | undefined;
}

function read(t: unknown): Toleration {
  const o = (typeof t === 'object' && t !== null ? t : {}) as Record<string, unknown>;
  const text = (v: unknown): string => (typeof v === 'string' ? v : '');
  return { key: text(o.key), operator: text(o.operator), value: text(o.value), effect: text(o.effect), tolerationSeconds: typeof o.tolerationSeconds === 'number' ? o.tolerationSeconds : undefined };
}

/** Whether `ss` tolerates everything `t` tolerates. */
function isSuperset(ss: Toleration, t: Toleration): boolean {
  if (isDeepStrictEqual(ss, t)) return true;
  // An empty key with Exists matches every key.
  if (t.key !== ss.key && (ss.key !== '' || ss.operator !== 'Exists')) return false;
  // An empty effect matches every effect.
  if (t.effect !== ss.effect && ss.effect !== '') return false;
  if (ss.effect === 'NoExecute' && ss.tolerationSeconds !== undefined) {
    if (t.tolerationSeconds === undefined || t.tolerationSeconds > ss.tolerationSeconds) return false;
  }
  if (ss.operator === 'Exists') return true;
  if (ss.operator === 'Equal' || ss.operator === '') return (t.operator === 'Equal' || t.operator === '') && t.value === ss.value;
  return false;
}

/** The merged list (the tolerations' own objects, in order). */
export function mergeTolerations(first: readonly unknown[], second: readonly unknown[]): unknown[] {
  const all = [...first, ...second];
  const parsed = all.map(read);
  const merged: number[] = [];
  parsed.forEach((t, i) => {
    if (merged.some((m) => isSuperset(parsed[m]!, t))) return;
    const coveredLater = parsed.slice(i + 1).some((later) => !isDeepStrictEqual(t, later) && isSuperset(later, t));
    if (!coveredLater) merged.push(i);
  });
  return merged.map((i) => all[i]);
}
