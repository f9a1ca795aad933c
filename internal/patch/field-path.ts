// Field paths as structured-merge-diff names them: a sequence of path elements, each a field
// name, the key fields of a list-map item, the value of a set item, or a list index.
import { PatchError } from './errors.ts';
import { canonicalJson, isObject } from './json-value.ts';

/** One step of a field path. */
export type PathElement =
  | { kind: 'field'; name: string }
  | { kind: 'key'; fields: Readonly<Record<string, unknown>> }
  | { kind: 'value'; value: unknown }
  | { kind: 'index'; index: number };

/** A path from the object root to a field; empty means the root itself. */
export type FieldPath = readonly PathElement[];

/** The path element of map field `name`. */
export function fieldElement(name: string): PathElement {
  return { kind: 'field', name };
}

/** FieldsV1 form of an element: `f:name`, `k:{"name":"x"}` (keys sorted), `v:"x"`, `i:0`. */
export function elementToFieldsV1(e: PathElement): string {
  switch (e.kind) {
    case 'field':
      return `f:${e.name}`;
    case 'key':
      return `k:${canonicalJson(e.fields)}`;
    case 'value':
      return `v:${canonicalJson(e.value)}`;
    case 'index':
      return `i:${e.index}`;
  }
}

/** Parses a FieldsV1 key back into an element; throws InvalidManagedFields when malformed. */
export function elementFromFieldsV1(text: string): PathElement {
  const body = text.slice(2);
  const bad = (): never => {
    throw new PatchError('InvalidManagedFields', `invalid field path element ${JSON.stringify(text)}`);
  };
  if (text.startsWith('f:')) return { kind: 'field', name: body };
  if (text.startsWith('i:')) {
    const index = Number(body);
    return /^\d+$/.test(body) && Number.isSafeInteger(index) ? { kind: 'index', index } : bad();
  }
  if (!text.startsWith('k:') && !text.startsWith('v:')) return bad();
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return bad();
  }
  if (text.startsWith('v:')) return { kind: 'value', value: parsed };
  return isObject(parsed) && Object.keys(parsed).length > 0 ? { kind: 'key', fields: parsed } : bad();
}

// Cached on the objects themselves as non-enumerable symbol properties (invisible to spreads, JSON
// and deep equality): WeakMap lookups here cost twice the time of a ConfigMap's managedFields.
const pathKeySymbol = Symbol('pathKey');
const elementTextSymbol = Symbol('elementText');
type Keyed<T> = T & { [pathKeySymbol]?: string; [elementTextSymbol]?: string };

function elementText(e: PathElement): string {
  const keyed = e as Keyed<PathElement>;
  let text = keyed[elementTextSymbol];
  if (text === undefined) {
    text = JSON.stringify(elementToFieldsV1(e));
    if (Object.isExtensible(e)) Object.defineProperty(keyed, elementTextSymbol, { value: text });
  }
  return text;
}

/** `path` followed by `element`, as a new path whose key is derived from the parent's (walkers build paths this way). */
export function extendPath(path: FieldPath, element: PathElement): FieldPath {
  const child = [...path, element] as Keyed<PathElement[]>;
  const parentKey = pathKey(path);
  Object.defineProperty(child, pathKeySymbol, { value: parentKey === '[]' ? `[${elementText(element)}]` : `${parentKey.slice(0, -1)},${elementText(element)}]` });
  return child;
}

/** The identity of a path, usable as a Map key: equal paths give equal strings (cached per path array). */
export function pathKey(path: FieldPath): string {
  const keyed = path as Keyed<FieldPath>;
  let key = keyed[pathKeySymbol];
  if (key === undefined) {
    key = `[${path.map(elementText).join(',')}]`;
    if (Object.isExtensible(path)) Object.defineProperty(keyed, pathKeySymbol, { value: key });
  }
  return key;
}

function scalarText(value: unknown): string {
  return canonicalJson(value);
}

/** Kubernetes' display form of a path, e.g. `.spec.containers[name="nginx"].ports[containerPort=80,protocol="TCP"]`. */
export function pathToString(path: FieldPath): string {
  let out = '';
  for (const e of path) {
    switch (e.kind) {
      case 'field':
        out += `.${e.name}`;
        break;
      case 'key':
        out += `[${Object.keys(e.fields)
          .sort()
          .map((k) => `${k}=${scalarText(e.fields[k])}`)
          .join(',')}]`;
        break;
      case 'value':
        out += `[=${scalarText(e.value)}]`;
        break;
      case 'index':
        out += `[${e.index}]`;
        break;
    }
  }
  return out;
}
