// Toleration set arithmetic of kube's pkg/util/tolerations: whether one toleration tolerates
// everything another does, merging two lists without redundant entries, and checking a list
// against a whitelist.

/** A toleration as JSON carries it. */
export type Toleration = Readonly<Record<string, unknown>>;

function text(t: Toleration, name: string): string {
  const value = t[name];
  return typeof value === 'string' ? value : '';
}

function seconds(t: Toleration): number | undefined {
  const value = t['tolerationSeconds'];
  return typeof value === 'number' ? value : undefined;
}

/** Field-by-field equality (Go's semantic DeepEqual of two core.Tolerations). */
export function sameToleration(a: Toleration, b: Toleration): boolean {
  return ['key', 'operator', 'value', 'effect'].every((f) => text(a, f) === text(b, f)) && seconds(a) === seconds(b);
}

/** Whether `ss` tolerates every taint `t` tolerates. */
export function isSuperset(ss: Toleration, t: Toleration): boolean {
  if (sameToleration(ss, t)) return true;
  // An empty key with Exists matches every key.
  if (text(t, 'key') !== text(ss, 'key') && (text(ss, 'key') !== '' || text(ss, 'operator') !== 'Exists')) return false;
  // An empty effect matches every effect.
  if (text(t, 'effect') !== text(ss, 'effect') && text(ss, 'effect') !== '') return false;
  const ssSeconds = seconds(ss);
  if (text(ss, 'effect') === 'NoExecute' && ssSeconds !== undefined) {
    const tSeconds = seconds(t);
    if (tSeconds === undefined || tSeconds > ssSeconds) return false;
  }
  switch (text(ss, 'operator')) {
    case 'Equal':
    case '':
      return text(t, 'operator') === 'Equal' && text(t, 'value') === text(ss, 'value');
    case 'Exists':
      return true;
    default:
      return false;
  }
}

/** `first` then `second`, dropping any toleration another one already covers (the first of equals kept). */
export function mergeTolerations(first: readonly Toleration[], second: readonly Toleration[]): Toleration[] {
  const all = [...first, ...second];
  const merged: Toleration[] = [];
  all.forEach((t, i) => {
    if (merged.some((kept) => isSuperset(kept, t))) return;
    if (all.slice(i + 1).some((later) => !sameToleration(t, later) && isSuperset(later, t))) return;
    merged.push(t);
  });
  return merged;
}

/** Whether every toleration is covered by some whitelist entry (an empty whitelist allows all). */
export function verifyAgainstWhitelist(tolerations: readonly Toleration[], whitelist: readonly Toleration[]): boolean {
  if (whitelist.length === 0 || tolerations.length === 0) return true;
  return tolerations.every((t) => whitelist.some((w) => isSuperset(w, t)));
}
