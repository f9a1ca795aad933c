// metadata.managedFields: decoding entries into owned field sets, encoding them back, and the
// bookkeeping both apply and update share (stripped fields, schema changes, empty managers).
import type { Comparison } from './compare.ts';
import { PatchError } from './errors.ts';
import { fieldElement } from './field-path.ts';
import type { FieldPath } from './field-path.ts';
import { FieldSet, fromFieldsV1, toFieldsV1 } from './field-set.ts';
import type { FieldsV1 } from './field-set.ts';
import { isObject } from './json-value.ts';
import type { JsonObject } from './json-value.ts';
import { ancientChangesManager, updateManagersMax } from './limits.ts';
import { fieldSchema, isAtomicMap, itemSchema, listTypeOf } from './schema.ts';
import type { Schema } from './schema.ts';

/** One metadata.managedFields entry as stored and served. */
export interface ManagedFieldsEntry {
  manager: string;
  operation: 'Apply' | 'Update';
  apiVersion: string;
  time?: string;
  fieldsType: 'FieldsV1';
  fieldsV1: FieldsV1;
  subresource?: string;
}

/** A decoded entry: the same identity, with its fields as a set. */
export interface ManagerFields {
  manager: string;
  operation: 'Apply' | 'Update';
  apiVersion: string;
  time?: string;
  subresource?: string;
  set: FieldSet;
}

/**
 * Identity of an entry, as Kubernetes keys them: manager, operation and sub-resource, plus the
 * API version for Update entries (an applier keeps one entry across versions).
 */
export function managerId(m: Pick<ManagerFields, 'manager' | 'operation' | 'apiVersion' | 'subresource'>): string {
  return JSON.stringify([m.manager, m.operation, m.operation === 'Apply' ? '' : m.apiVersion, m.subresource ?? '']);
}

function decodeEntry(raw: unknown, index: number): ManagerFields {
  const where = `metadata.managedFields[${index}]`;
  if (!isObject(raw)) throw new PatchError('InvalidManagedFields', `${where}: must be an object`);
  const text = (name: string): string | undefined => {
    const v = raw[name];
    if (v !== undefined && v !== null && typeof v !== 'string') throw new PatchError('InvalidManagedFields', `${where}.${name}: must be a string`);
    return v ?? undefined;
  };
  const operation = text('operation') ?? '';
  if (operation !== '' && operation !== 'Apply' && operation !== 'Update') {
    throw new PatchError('InvalidManagedFields', `${where}.operation: must be "Apply" or "Update"`);
  }
  const fieldsType = text('fieldsType');
  if (fieldsType !== undefined && fieldsType !== '' && fieldsType !== 'FieldsV1') {
    throw new PatchError('InvalidManagedFields', `${where}.fieldsType: must be "FieldsV1"`);
  }
  const subresource = text('subresource');
  return {
    manager: text('manager') ?? '',
    operation: operation === 'Apply' ? 'Apply' : 'Update',
    apiVersion: text('apiVersion') ?? '',
    ...(text('time') ? { time: text('time') } : {}),
    ...(subresource ? { subresource } : {}),
    set: fromFieldsV1(raw['fieldsV1'] ?? raw['fields'] ?? {}),
  };
}

/** Decodes a managedFields list (absent means none); throws InvalidManagedFields when malformed. */
export function decodeManagedFields(raw: unknown): Map<string, ManagerFields> {
  const out = new Map<string, ManagerFields>();
  if (raw === undefined || raw === null) return out;
  if (!Array.isArray(raw)) throw new PatchError('InvalidManagedFields', 'metadata.managedFields: must be a list');
  raw.forEach((entry, i) => {
    const decoded = decodeEntry(entry, i);
    const id = managerId(decoded);
    const previous = out.get(id);
    if (previous !== undefined) decoded.set = decoded.set.union(previous.set);
    out.set(id, decoded);
  });
  return out;
}

function compareEntries(p: ManagerFields, q: ManagerFields): number {
  const pairs: [string, string][] = [
    [p.operation, q.operation],
    [p.time ?? '', q.time ?? ''],
    [p.manager, q.manager],
    [p.apiVersion, q.apiVersion],
    [p.subresource ?? '', q.subresource ?? ''],
  ];
  for (const [a, b] of pairs) if (a !== b) return a < b ? -1 : 1;
  return 0;
}

/** Encodes entries sorted as Kubernetes sorts them: Apply first, then by time, manager, version. Empty sets are dropped. */
export function encodeManagedFields(managers: Map<string, ManagerFields>): ManagedFieldsEntry[] {
  return [...managers.values()]
    .filter((m) => !m.set.isEmpty())
    .sort(compareEntries)
    .map((m) => ({
      manager: m.manager,
      operation: m.operation,
      apiVersion: m.apiVersion,
      ...(m.time !== undefined ? { time: m.time } : {}),
      fieldsType: 'FieldsV1' as const,
      fieldsV1: toFieldsV1(m.set),
      ...(m.subresource !== undefined ? { subresource: m.subresource } : {}),
    }));
}

/** Top-level fields nobody owns themselves (what they hold stays owned). */
export const unownedTopFields: readonly string[] = ['apiVersion', 'kind', 'metadata'];
/** Server-set metadata fields nobody owns themselves. */
export const unownedMetadataFields: readonly string[] = [
  'name', 'namespace', 'creationTimestamp', 'selfLink', 'uid', 'generation', 'resourceVersion', 'deletionTimestamp', 'deletionGracePeriodSeconds',
];

const strippedExact = new FieldSet([
  ...unownedTopFields.map((name) => [fieldElement(name)]),
  ...unownedMetadataFields.map((name) => [fieldElement('metadata'), fieldElement(name)]),
]);
const strippedRecursive = new FieldSet([[fieldElement('metadata'), fieldElement('managedFields')]]);

/**
 * The set without fields no manager ever owns (identity, type and server-set metadata, as
 * Kubernetes strips them) and without `ignored` (reset fields such as `status`) and below.
 */
export function stripUnowned(set: FieldSet, ignored?: FieldSet): FieldSet {
  let out = set.difference(strippedExact).recursiveDifference(strippedRecursive);
  if (ignored !== undefined) out = out.recursiveDifference(ignored);
  return out;
}

/** A copy of an object without metadata.managedFields (ownership is never compared as data). */
export function withoutManagedFields(obj: JsonObject): JsonObject {
  const meta = obj['metadata'];
  if (!isObject(meta) || !('managedFields' in meta)) return obj;
  const { managedFields: _dropped, ...rest } = meta;
  return { ...obj, metadata: rest };
}

function truncateAtAtomic(path: FieldPath, schema: Schema | undefined): FieldPath {
  let s = schema;
  for (let n = 0; n < path.length; n++) {
    const e = path[n]!;
    const listStep = e.kind !== 'field';
    const atomicHere = listStep ? listTypeOf(s).kind === 'atomic' : isAtomicMap(s);
    if (atomicHere) return path.slice(0, n);
    s = e.kind === 'field' ? fieldSchema(s, e.name) : itemSchema(s);
  }
  return path;
}

/**
 * SSA rule 9: where the schema now makes a list or map atomic, an owner of any of its elements
 * owns the whole field. The reverse change needs nothing: owning the node conflicts with nobody.
 */
export function reconcileWithSchema(set: FieldSet, schema: Schema | undefined): FieldSet {
  return new FieldSet(set.paths().map((p) => truncateAtAtomic(p, schema)).filter((p) => p.length > 0));
}

/** Drops managers that own nothing (SSA rule 6) and merges the oldest Update entries beyond the cap into one. */
export function tidyManagers(managers: Map<string, ManagerFields>, now: string): void {
  for (const [id, m] of managers) if (m.set.isEmpty()) managers.delete(id);
  const updates = [...managers.entries()].filter(([, m]) => m.operation === 'Update' && m.manager !== ancientChangesManager);
  const ancient = { manager: ancientChangesManager, operation: 'Update' as const, apiVersion: '', time: now, set: new FieldSet() };
  const ancientKey = managerId(ancient);
  const existing = managers.get(ancientKey);
  if (updates.length + (existing ? 1 : 0) <= updateManagersMax) return;
  updates.sort(([, p], [, q]) => compareEntries(p, q));
  if (existing !== undefined) ancient.set = existing.set;
  for (const [id, m] of updates.slice(0, updates.length + 1 - updateManagersMax)) {
    ancient.set = ancient.set.union(m.set);
    managers.delete(id);
  }
  managers.set(ancientKey, ancient);
}

/** Fields a write sets or changes, from `oldObject` (absent: empty) to `newObject`, without unowned ones. */
export function changedFields(comparison: Comparison, ignored?: FieldSet): FieldSet {
  return stripUnowned(comparison.added.union(comparison.modified), ignored);
}

/** The metadata.managedFields of an object, or undefined. */
export function managedFieldsOf(obj: JsonObject | null): unknown {
  const meta = obj?.['metadata'];
  return isObject(meta) ? meta['managedFields'] : undefined;
}

/** The current time's entry for a manager of an Update write (used for writers and `before-first-apply`). */
export function updateEntry(manager: string, apiVersion: string, now: string, set: FieldSet, subresource?: string): ManagerFields {
  return { manager, operation: 'Update', apiVersion, time: now, set, ...(subresource ? { subresource } : {}) };
}
