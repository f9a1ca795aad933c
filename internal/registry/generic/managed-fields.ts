/**
 * managedFields bookkeeping of the registry's writes: the patch layer's field ownership, driven by
 * the declared schema, applied to non-apply writes.
 */
import { FieldSet, PatchError, recordUpdate } from '../../patch/index.ts';
import type { KObject, ResourceDeclaration } from '../schema/declaration.ts';
import { objectPatchSchema } from '../schema/patch-schema.ts';

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Fields the endpoint resets and nobody owns there: `status` on the main resource of a kind with
 * a status sub-resource; everything but `status` on the status sub-resource.
 */
export function resetFields(decl: ResourceDeclaration, subresource: string | undefined): FieldSet | undefined {
  const field = (name: string) => [{ kind: 'field' as const, name }];
  if (subresource === 'status') {
    return new FieldSet([field('metadata'), ...Object.keys(decl.fields).filter((f) => f !== 'status').map(field)]);
  }
  if (subresource === undefined && decl.subresources?.status) return new FieldSet([field('status')]);
  return undefined;
}

// ObjectMeta fields Kubernetes omits when empty, so nobody owns an empty one.
const omittedWhenEmpty = ['labels', 'annotations', 'finalizers', 'ownerReferences'] as const;

function isEmptyValue(v: unknown): boolean {
  return (Array.isArray(v) && v.length === 0) || (isObject(v) && Object.keys(v).length === 0);
}

/** A shallow copy of `obj` without the empty metadata maps and lists Kubernetes never serializes. */
function withoutEmptyMetadata(obj: KObject): KObject {
  if (!omittedWhenEmpty.some((f) => isEmptyValue(obj.metadata[f]))) return obj;
  const metadata = { ...obj.metadata };
  for (const f of omittedWhenEmpty) if (isEmptyValue(metadata[f])) delete metadata[f];
  return { ...obj, metadata };
}

/** Who writes, as recordWriteFields needs it. */
export interface FieldsWriter {
  readonly fieldManager: string;
  readonly apiVersion: string;
  readonly subresource?: string;
  /** RFC 3339 time of the write. */
  readonly time: string;
}

/**
 * Sets `obj.metadata.managedFields` after a non-apply write (operation Update) of `obj` over
 * `old` (null for a create): SSA rules 3 and 7 as the patch layer implements them. Removes the
 * field when no entry remains, and when the patch layer cannot walk the object (a list-map item
 * without its key, nesting past its limit): an Update never fails because of ownership (rule 3),
 * and kube-apiserver 1.28's FieldManager.UpdateNoErrors clears managedFields then.
 */
export function recordWriteFields(obj: KObject, old: KObject | null, decl: ResourceDeclaration, writer: FieldsWriter): void {
  const ignored = resetFields(decl, writer.subresource);
  let entries: unknown[];
  try {
    entries = recordUpdate({
      oldObject: old === null ? null : withoutEmptyMetadata(old),
      newObject: withoutEmptyMetadata(obj),
      manager: writer.fieldManager,
      apiVersion: writer.apiVersion,
      schema: objectPatchSchema(decl),
      now: writer.time,
      ...(writer.subresource ? { subresource: writer.subresource } : {}),
      ...(ignored ? { ignored } : {}),
    });
  } catch (err) {
    if (!(err instanceof PatchError)) throw err;
    entries = [];
  }
  if (entries.length === 0) delete obj.metadata.managedFields;
  else obj.metadata.managedFields = entries;
}
