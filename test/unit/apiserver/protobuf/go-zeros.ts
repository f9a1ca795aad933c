// What separates orch's stored JSON from Go's: orch keeps a zero ('' / 0 / false) a client wrote
// in a non-pointer `omitempty` field, which Go's JSON (and so a Protobuf round trip) drops. These
// helpers find such zeros so a round-trip test can name each one it accepts.

type Json = Record<string, unknown>;

const isZeroScalar = (value: unknown): boolean => value === '' || value === 0 || value === false;

/** Paths (`spec.unschedulable`, `subjects[0].apiGroup`) of zero scalars `expected` has and `actual` lacks. */
export function zerosDropped(expected: unknown, actual: unknown, path = ''): string[] {
  if (Array.isArray(expected) && Array.isArray(actual)) {
    return expected.flatMap((item, i) => zerosDropped(item, actual[i], `${path}[${i}]`));
  }
  if (typeof expected !== 'object' || expected === null || typeof actual !== 'object' || actual === null) return [];
  const dropped: string[] = [];
  for (const [key, value] of Object.entries(expected as Json)) {
    const at = path === '' ? key : `${path}.${key}`;
    if (!(key in (actual as Json))) {
      if (isZeroScalar(value)) dropped.push(at);
      continue;
    }
    dropped.push(...zerosDropped(value, (actual as Json)[key], at));
  }
  return dropped;
}

/** A copy of `object` without the values at `paths` (as zerosDropped names them). */
export function withoutPaths(object: unknown, paths: readonly string[]): unknown {
  const copy = structuredClone(object);
  for (const path of paths) {
    const steps = path.split(/\.|(?=\[)/).map((s) => (s.startsWith('[') ? Number(s.slice(1, -1)) : s));
    let at = copy as Record<string | number, unknown>;
    for (const step of steps.slice(0, -1)) at = at[step] as Record<string | number, unknown>;
    delete at[steps[steps.length - 1] as string | number];
  }
  return copy;
}
