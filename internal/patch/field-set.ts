// Sets of field paths (what a manager owns) and their FieldsV1 JSON form, as Kubernetes writes
// it in metadata.managedFields.
import { PatchError } from './errors.ts';
import { elementFromFieldsV1, elementToFieldsV1, extendPath, fieldElement, pathKey, pathToString } from './field-path.ts';
import type { FieldPath } from './field-path.ts';
import { isObject } from './json-value.ts';
import { identifyItems } from './list-items.ts';
import { nestingDepthMax } from './limits.ts';
import { fieldSchema, isAtomicMap, itemSchema, listTypeOf } from './schema.ts';
import type { Schema } from './schema.ts';

/** An immutable-by-convention set of field paths; operations return new sets. */
export class FieldSet {
  readonly #paths = new Map<string, FieldPath>();
  #sortedKeys: string[] | undefined;

  constructor(paths: Iterable<FieldPath> = []) {
    for (const p of paths) this.#paths.set(pathKey(p), p);
  }

  /** Number of paths in the set. */
  get size(): number {
    return this.#paths.size;
  }

  /** True when the set holds no path. */
  isEmpty(): boolean {
    return this.#paths.size === 0;
  }

  /** True when exactly `path` is in the set. */
  has(path: FieldPath): boolean {
    return this.#paths.has(pathKey(path));
  }

  /** True when `path` or any path below it is in the set. */
  hasSelfOrDescendant(path: FieldPath): boolean {
    const self = pathKey(path);
    if (this.#paths.has(self)) return true;
    // Keys below a path share a prefix, so in sorted order they follow the prefix's insertion point.
    const below = descendantPrefix(self);
    this.#sortedKeys ??= [...this.#paths.keys()].sort();
    const keys = this.#sortedKeys;
    let lo = 0;
    let hi = keys.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (keys[mid]! < below) lo = mid + 1;
      else hi = mid;
    }
    return lo < keys.length && keys[lo]!.startsWith(below);
  }

  /** Adds `path` in place (used while building a set). */
  insert(path: FieldPath): void {
    this.#paths.set(pathKey(path), path);
    this.#sortedKeys = undefined;
  }

  /** The paths, in no promised order. */
  paths(): FieldPath[] {
    return [...this.#paths.values()];
  }

  /** Paths in this set or in `other`. */
  union(other: FieldSet): FieldSet {
    return new FieldSet([...this.paths(), ...other.paths()]);
  }

  /** Paths in this set and not in `other` (exact paths; descendants are not implied). */
  difference(other: FieldSet): FieldSet {
    return new FieldSet(this.paths().filter((p) => !other.has(p)));
  }

  /** Paths in this set that neither are in `other` nor lie below a path of `other`. */
  recursiveDifference(other: FieldSet): FieldSet {
    const prefixes = [...other.#paths.keys()];
    const removed = (key: string): boolean => prefixes.some((q) => key === q || key.startsWith(descendantPrefix(q)));
    return new FieldSet([...this.#paths].filter(([key]) => !removed(key)).map(([, p]) => p));
  }

  /** Paths in both sets. */
  intersection(other: FieldSet): FieldSet {
    return new FieldSet(this.paths().filter((p) => other.has(p)));
  }

  /** True when both sets hold the same paths. */
  equals(other: FieldSet): boolean {
    return this.size === other.size && this.paths().every((p) => other.has(p));
  }
}

/** Every path key below the path whose key is `key` starts with this (keys are JSON arrays of strings). */
function descendantPrefix(key: string): string {
  return key === '[]' ? '["' : `${key.slice(0, -1)},`;
}

/** A FieldsV1 tree: `{"f:spec":{"f:replicas":{}}}`; `".": {}` marks a node owned along with children. */
export type FieldsV1 = { [key: string]: FieldsV1 };

const elementOrder = { f: 0, k: 1, v: 2, i: 3 } as Record<string, number>;

function compareFieldsV1Keys(a: string, b: string): number {
  const byKind = (elementOrder[a[0]!] ?? 9) - (elementOrder[b[0]!] ?? 9);
  if (byKind !== 0) return byKind;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** A FieldsV1 tree being built: children by FieldsV1 key; `member` when the node itself is in the set. */
export interface TreeNode {
  member: boolean;
  readonly children: Map<string, TreeNode>;
}

/** The FieldsV1 of a built tree: children sorted (fields, keys, values, indexes), `"."` first. */
export function nodeToFieldsV1(node: TreeNode): FieldsV1 {
  const out: FieldsV1 = {};
  if (node.member && node.children.size > 0) out['.'] = {};
  for (const key of [...node.children.keys()].sort(compareFieldsV1Keys)) out[key] = nodeToFieldsV1(node.children.get(key)!);
  return out;
}

/** The FieldsV1 tree of a set: children sorted (fields, keys, values, indexes), `"."` first. */
export function toFieldsV1(set: FieldSet): FieldsV1 {
  const root: TreeNode = { member: false, children: new Map() };
  for (const path of set.paths()) {
    let node = root;
    for (const e of path) {
      const key = elementToFieldsV1(e);
      let child = node.children.get(key);
      if (child === undefined) {
        child = { member: false, children: new Map() };
        node.children.set(key, child);
      }
      node = child;
    }
    node.member = true;
  }
  return nodeToFieldsV1(root);
}

/** The set a FieldsV1 tree describes; throws InvalidManagedFields for a malformed tree. */
export function fromFieldsV1(tree: unknown): FieldSet {
  const set = new FieldSet();
  const walk = (node: unknown, prefix: FieldPath): void => {
    if (!isObject(node)) throw new PatchError('InvalidManagedFields', 'fieldsV1: every node must be a JSON object');
    if (prefix.length > nestingDepthMax) throw new PatchError('TooDeep', 'fieldsV1: nesting too deep');
    const keys = Object.keys(node);
    if (prefix.length > 0 && (keys.length === 0 || keys.includes('.'))) set.insert(prefix);
    for (const key of keys) {
      if (key === '.') continue;
      walk(node[key], extendPath(prefix, elementFromFieldsV1(key)));
    }
  };
  walk(tree ?? {}, []);
  return set;
}

/**
 * The fields an object specifies, as SSA counts them for an applier: every scalar leaf, every
 * atomic list or map as a whole, and every item of a granular list (by keys or value) along
 * with its fields, and every entry of a map whose keys are not declared properties. Empty
 * granular maps and lists specify nothing.
 */
export function fieldSetFromObject(obj: unknown, schema: Schema | undefined): FieldSet {
  const set = new FieldSet();
  const walk = (value: unknown, s: Schema | undefined, path: FieldPath): void => {
    if (path.length > nestingDepthMax) throw new PatchError('TooDeep', 'object nesting too deep');
    if (Array.isArray(value)) {
      const listType = listTypeOf(s);
      if (listType.kind === 'atomic') return set.insert(path);
      for (const item of identifyItems(value, listType, s, pathToString(path))) {
        const itemPath = extendPath(path, item.element);
        set.insert(itemPath);
        if (listType.kind === 'map') walk(item.value, itemSchema(s), itemPath);
      }
      return;
    }
    if (isObject(value)) {
      if (isAtomicMap(s)) return set.insert(path);
      for (const [k, v] of Object.entries(value)) {
        const childPath = extendPath(path, fieldElement(k));
        walk(v, fieldSchema(s, k), childPath);
        // As structured-merge-diff does, a key that is not a declared property (a map entry, or
        // any key of unstructured data) is owned as a node of its own.
        if (s?.properties?.[k] === undefined) set.insert(childPath);
      }
      return;
    }
    if (value !== undefined) set.insert(path);
  };
  walk(obj, schema, []);
  return set;
}
