// Ownership bookkeeping for non-apply writes (PUT, JSON/merge/strategic patch): SSA rules 3 and 7.
import { compareObjects } from './compare.ts';
import { createdFields } from './created-fields.ts';
import { toFieldsV1 } from './field-set.ts';
import type { FieldSet } from './field-set.ts';
import type { JsonObject } from './json-value.ts';
import {
  changedFields,
  decodeManagedFields,
  encodeManagedFields,
  managedFieldsOf,
  managerId,
  reconcileWithSchema,
  tidyManagers,
  updateEntry,
  withoutManagedFields,
} from './managed-fields.ts';
import type { ManagedFieldsEntry, ManagerFields } from './managed-fields.ts';
import { PatchError } from './errors.ts';
import type { Schema } from './schema.ts';

/** Inputs of `recordUpdate`. */
export interface RecordUpdateOptions {
  /** The stored object before the write; null for a create. */
  oldObject: JsonObject | null;
  /** The object the write produces, with metadata.managedFields as the writer sent it (if any). */
  newObject: JsonObject;
  /** The writer's field manager. */
  manager: string;
  /** API version the writer used. */
  apiVersion: string;
  schema: Schema | undefined;
  /** RFC 3339 time of the write. */
  now: string;
  /** The stored managedFields; defaults to oldObject.metadata.managedFields. */
  managedFields?: unknown;
  /** Sub-resource written (e.g. `status`), when not the main resource. */
  subresource?: string;
  /** Fields the resource resets on this endpoint (e.g. `status` on the main resource); nobody owns them here. */
  ignored?: FieldSet;
}

function baseManagers(o: RecordUpdateOptions): { managers: Map<string, ManagerFields>; fromRequest: boolean } {
  const requested = managedFieldsOf(o.newObject);
  if (Array.isArray(requested) && requested.length > 0 && o.subresource === undefined) {
    try {
      return { managers: decodeManagedFields(requested), fromRequest: true };
    } catch (err) {
      if (!(err instanceof PatchError)) throw err;
      // As Kubernetes does: managedFields a client cannot express correctly fall back to the stored ones.
    }
  }
  try {
    return { managers: decodeManagedFields(o.managedFields ?? managedFieldsOf(o.oldObject)), fromRequest: false };
  } catch (err) {
    if (!(err instanceof PatchError)) throw err;
    return { managers: new Map(), fromRequest: false };
  }
}

/**
 * The managedFields after a non-apply write (operation `Update`). The writer takes every field it
 * added or changed, and those fields and every removed one leave other managers' sets (rule 3;
 * never a conflict). Managed fields sent with the write replace the stored ones first, so
 * `[{}]` resets them (rule 7) while `[]` or none keeps them. On an object with no managedFields
 * at all, the writer is given every field of the new object. Entries left empty are dropped.
 */
export function recordUpdate(o: RecordUpdateOptions): ManagedFieldsEntry[] {
  const { managers, fromRequest } = baseManagers(o);
  if (o.oldObject === null && managers.size === 0) {
    const created = createdEntries(o);
    if (created !== undefined) return created;
  }
  const newObject = withoutManagedFields(o.newObject);
  const oldObject = o.oldObject === null ? null : withoutManagedFields(o.oldObject);
  const ownsAll = oldObject === null || (managers.size === 0 && !fromRequest);
  for (const m of managers.values()) m.set = reconcileWithSchema(m.set, o.schema);
  const comparison = compareObjects(ownsAll ? {} : oldObject, newObject, o.schema);
  const changed = changedFields(comparison, o.ignored);
  for (const m of managers.values()) m.set = m.set.difference(changed).difference(comparison.removed);
  if (!changed.isEmpty()) {
    const mine = updateEntry(o.manager, o.apiVersion, o.now, changed, o.subresource);
    const previous = managers.get(managerId(mine));
    if (previous !== undefined) mine.set = mine.set.union(previous.set);
    managers.set(managerId(mine), mine);
  }
  tidyManagers(managers, o.now);
  return encodeManagedFields(managers);
}

/**
 * A create with no managedFields to keep: the writer's one entry, owning every field of the new
 * object, built in one walk (the general path gives the same). Undefined when the walk fails
 * (a list-map item without its key, nesting too deep): the general path then reports it.
 */
function createdEntries(o: RecordUpdateOptions): ManagedFieldsEntry[] | undefined {
  let fieldsV1;
  try {
    fieldsV1 = createdFields(withoutManagedFields(o.newObject), o.schema, o.ignored === undefined ? undefined : toFieldsV1(o.ignored));
  } catch (err) {
    if (err instanceof PatchError) return undefined;
    throw err;
  }
  if (fieldsV1 === null) return [];
  return [{ manager: o.manager, operation: 'Update', apiVersion: o.apiVersion, time: o.now, fieldsType: 'FieldsV1', fieldsV1, ...(o.subresource ? { subresource: o.subresource } : {}) }];
}
