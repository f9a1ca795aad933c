// Public surface of the patch layer: strategic merge patch, server-side apply and field ownership.
export { applyStrategicMergePatch } from './strategic-merge-patch.ts';
export { apply, beforeFirstApplyManager } from './server-side-apply.ts';
export type { ApplyOptions, ApplyResult } from './server-side-apply.ts';
export { recordUpdate } from './update-managed-fields.ts';
export type { RecordUpdateOptions } from './update-managed-fields.ts';
export { FieldSet, fieldSetFromObject, fromFieldsV1, toFieldsV1 } from './field-set.ts';
export type { FieldsV1 } from './field-set.ts';
export { pathToString } from './field-path.ts';
export type { FieldPath, PathElement } from './field-path.ts';
export { compareObjects } from './compare.ts';
export type { Comparison } from './compare.ts';
export { decodeManagedFields, encodeManagedFields } from './managed-fields.ts';
export type { ManagedFieldsEntry } from './managed-fields.ts';
export { ApplyConflictError, PatchError } from './errors.ts';
export type { ApplyConflict, ConflictCause, PatchErrorCode } from './errors.ts';
export type { Schema, ListType } from './schema.ts';
