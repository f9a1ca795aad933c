// Server-side apply (application/apply-patch+yaml): merge an applier's configuration into the
// live object and track who owns which field (SPEC "Server-side apply rules" 1–9).
import { compareObjects } from './compare.ts';
import { mergeForApply, pruneFields } from './apply-merge.ts';
import { ApplyConflictError, PatchError } from './errors.ts';
import type { ApplyConflict } from './errors.ts';
import { pathToString } from './field-path.ts';
import { FieldSet, fieldSetFromObject } from './field-set.ts';
import { isObject, jsonEqual } from './json-value.ts';
import type { JsonObject } from './json-value.ts';
import {
  changedFields,
  decodeManagedFields,
  encodeManagedFields,
  managedFieldsOf,
  managerId,
  reconcileWithSchema,
  stripUnowned,
  tidyManagers,
  updateEntry,
  withoutManagedFields,
} from './managed-fields.ts';
import type { ManagedFieldsEntry, ManagerFields } from './managed-fields.ts';
import type { Schema } from './schema.ts';

/** The manager Kubernetes credits with an object's fields when the first apply finds no managedFields. */
export const beforeFirstApplyManager = 'before-first-apply';

/** Inputs of `apply`. */
export interface ApplyOptions {
  /** The stored object (with its managedFields), or null when the apply creates it. */
  live: JsonObject | null;
  /** The applied configuration, decoded; must not carry metadata.managedFields. */
  applied: JsonObject;
  /** The `fieldManager` of the request (required). */
  manager: string;
  /** API version of the applied configuration. */
  apiVersion: string;
  /** `force=true`: take conflicting fields from their owners instead of failing. */
  force: boolean;
  schema: Schema | undefined;
  /** RFC 3339 time of the apply. */
  now: string;
  /** Sub-resource applied to (e.g. `status`), when not the main resource. */
  subresource?: string;
  /** Fields the resource resets on this endpoint (e.g. `status` on the main resource); nobody owns them here. */
  ignored?: FieldSet;
}

/** Outcome of `apply`. */
export interface ApplyResult {
  /** The new object, metadata.managedFields included. */
  object: JsonObject;
  /** The new managedFields (also inside `object`). */
  managedFields: ManagedFieldsEntry[];
  /** False when the apply changed neither the object nor any ownership (a no-op). */
  changed: boolean;
}

function validate(o: ApplyOptions): void {
  if (!isObject(o.applied)) throw new PatchError('InvalidPatch', 'the applied configuration must be an object');
  if (o.manager === '') throw new PatchError('InvalidPatch', 'fieldManager is required for apply requests');
  if (managedFieldsOf(o.applied) !== undefined && managedFieldsOf(o.applied) !== null) {
    throw new PatchError('ManagedFieldsInApply', 'metadata.managedFields must be nil');
  }
}

function liveManagers(o: ApplyOptions, liveObj: JsonObject): Map<string, ManagerFields> {
  const managers = decodeManagedFields(managedFieldsOf(o.live));
  if (o.live !== null && managers.size === 0) {
    const set = changedFields(compareObjects({}, liveObj, o.schema), o.ignored);
    const entry = updateEntry(beforeFirstApplyManager, o.apiVersion, o.now, set);
    managers.set(managerId(entry), entry);
  }
  for (const m of managers.values()) m.set = reconcileWithSchema(m.set, o.schema);
  return managers;
}

function conflictsOf(managers: Map<string, ManagerFields>, applyId: string, changed: FieldSet): ApplyConflict[] {
  const out: ApplyConflict[] = [];
  for (const [id, m] of managers) {
    if (id === applyId) continue;
    for (const path of m.set.intersection(changed).paths()) {
      out.push({ manager: m.manager, operation: m.operation, apiVersion: m.apiVersion, field: pathToString(path), ...(m.subresource ? { subresource: m.subresource } : {}) });
    }
  }
  return out.sort((a, b) => (a.manager !== b.manager ? (a.manager < b.manager ? -1 : 1) : a.field < b.field ? -1 : a.field > b.field ? 1 : 0));
}

function sameOwnership(before: Map<string, ManagerFields>, after: Map<string, ManagerFields>): boolean {
  if (before.size !== after.size) return false;
  for (const [id, m] of after) {
    const b = before.get(id);
    if (b === undefined || !b.set.equals(m.set) || b.apiVersion !== m.apiVersion) return false;
  }
  return true;
}

/**
 * Applies `applied` for `manager`. The manager comes to own exactly the fields of its
 * configuration; fields it owned before and no longer applies are removed unless another manager
 * owns them (rule 4). Changing a field another manager owns throws ApplyConflictError listing
 * every such field, unless `force` moves them to the applier (rule 2). Throws PatchError for bad input.
 */
export function apply(o: ApplyOptions): ApplyResult {
  validate(o);
  const liveObj = o.live === null ? {} : withoutManagedFields(o.live);
  const managers = liveManagers(o, liveObj);
  const before = new Map([...managers].map(([id, m]) => [id, { ...m }] as const));
  const applyId = managerId({ manager: o.manager, operation: 'Apply', apiVersion: o.apiVersion, ...(o.subresource ? { subresource: o.subresource } : {}) });
  const newSet = stripUnowned(fieldSetFromObject(o.applied, o.schema), o.ignored);
  const lastSet = managers.get(applyId)?.set ?? new FieldSet();
  const merged = mergeForApply(liveObj, o.applied, o.schema) as JsonObject;
  let others = new FieldSet();
  for (const [id, m] of managers) if (id !== applyId) others = others.union(m.set);
  pruneFields(merged, lastSet.difference(newSet), others.union(newSet), o.schema);
  const comparison = compareObjects(liveObj, merged, o.schema);
  const changed = changedFields(comparison, o.ignored);
  const conflicts = conflictsOf(managers, applyId, changed);
  if (conflicts.length > 0 && !o.force) throw new ApplyConflictError(conflicts);
  for (const [id, m] of managers) if (id !== applyId) m.set = m.set.difference(changed).difference(comparison.removed);
  const previous = managers.get(applyId);
  managers.set(applyId, { manager: o.manager, operation: 'Apply', apiVersion: o.apiVersion, time: o.now, set: newSet, ...(o.subresource ? { subresource: o.subresource } : {}) });
  tidyManagers(managers, o.now);
  const noop = jsonEqual(liveObj, merged) && sameOwnership(before, managers);
  const mine = managers.get(applyId);
  if (noop && mine !== undefined && previous?.time !== undefined) mine.time = previous.time;
  const managedFields = encodeManagedFields(managers);
  const metadata = isObject(merged['metadata']) ? merged['metadata'] : {};
  const object: JsonObject = { ...merged, metadata: { ...metadata, managedFields } };
  if (managedFields.length === 0) delete (object['metadata'] as JsonObject)['managedFields'];
  return { object, managedFields, changed: !noop };
}
