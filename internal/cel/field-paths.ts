// Field paths as kube prints them (k8s.io/apimachinery field.Path): `a.b`, `a[0]`, `a[key]`.

/** `path.name` (just `name` at the root). */
export function childPath(path: string, name: string): string {
  return path === '' ? name : `${path}.${name}`;
}

/** `path[i]`. */
export function indexPath(path: string, i: number): string {
  return `${path}[${i}]`;
}

/** `path[key]`. */
export function keyPath(path: string, key: string): string {
  return `${path}[${key}]`;
}

/**
 * A rule's `fieldPath` (`.spec.x`, `.a['b.c']`) in field.Path form relative to the rule's node
 * (`spec.x`, `a[b.c]`), or undefined when it is not a path of field selections and quoted keys.
 */
export function normalizeRuleFieldPath(fieldPath: string): string | undefined {
  const parts: string[] = [];
  let rest = fieldPath.trim();
  while (rest.length > 0) {
    const dotted = /^\.([^.[\]]+)/.exec(rest);
    const quoted = /^\['((?:[^'\\]|\\.)*)'\]/.exec(rest);
    if (dotted) {
      parts.push(parts.length === 0 ? dotted[1] ?? '' : `.${dotted[1] ?? ''}`);
      rest = rest.slice(dotted[0].length);
    } else if (quoted) {
      parts.push(`[${(quoted[1] ?? '').replace(/\\(.)/g, '$1')}]`);
      rest = rest.slice(quoted[0].length);
    } else {
      return undefined;
    }
  }
  return parts.join('');
}
