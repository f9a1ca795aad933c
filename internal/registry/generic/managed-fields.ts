/**
 * managedFields bookkeeping of the registry's writes. `recordWriteFields` is what the store uses
 * (the patch layer's field ownership, driven by the declared schema); `changedFields` and
 * `recordWrite` are the earlier, schema-less version kept for callers that still use it.
 */
import { FieldSet, recordUpdate } from '../../patch/index.ts';
import type { KObject, ResourceDeclaration } from '../schema/declaration.ts';
import { objectPatchSchema } from '../schema/patch-schema.ts';

/** A fieldsV1 tree: `f:<name>` keys, `{}` at leaves, `.` for the node itself. */
export type FieldsTree = { [key: string]: FieldsTree };

/** One managedFields entry. */
export interface ManagedFieldsEntry {
  manager: string;
  operation: 'Update' | 'Apply';
  apiVersion: string;
  time: string;
  fieldsType: 'FieldsV1';
  fieldsV1: FieldsTree;
  subresource?: string;
}

const skippedMetadata = new Set(['name', 'namespace', 'uid', 'resourceVersion', 'generation', 'creationTimestamp', 'deletionTimestamp', 'deletionGracePeriodSeconds', 'managedFields', 'selfLink', 'generateName']);

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function treeOf(value: unknown): FieldsTree {
  if (!isObject(value)) return {};
  const tree: FieldsTree = {};
  for (const [k, v] of Object.entries(value)) tree[`f:${k}`] = isObject(v) ? { '.': {}, ...treeOf(v) } : {};
  return tree;
}

/** The fields of `next` that differ from `prev` (all of `next` when `prev` is undefined). */
export function changedFields(next: unknown, prev: unknown, top = true): FieldsTree {
  if (!isObject(next)) return {};
  const tree: FieldsTree = {};
  for (const [k, v] of Object.entries(next)) {
    if (top && (k === 'apiVersion' || k === 'kind')) continue;
    const before = isObject(prev) ? prev[k] : undefined;
    if (top && k === 'metadata') {
      const meta = Object.fromEntries(Object.entries(isObject(v) ? v : {}).filter(([mk]) => !skippedMetadata.has(mk)));
      const prevMeta = isObject(before) ? before : undefined;
      const sub = changedFields(meta, prevMeta, false);
      if (Object.keys(sub).length > 0) tree['f:metadata'] = sub;
      continue;
    }
    if (isObject(v)) {
      const sub = before === undefined ? treeOf(v) : changedFields(v, before, false);
      if (Object.keys(sub).length > 0) tree[`f:${k}`] = before === undefined ? { '.': {}, ...sub } : sub;
    } else if (JSON.stringify(v) !== JSON.stringify(before)) tree[`f:${k}`] = {};
  }
  return tree;
}

function merge(a: FieldsTree, b: FieldsTree): FieldsTree {
  const out: FieldsTree = { ...a };
  for (const [k, v] of Object.entries(b)) out[k] = merge(out[k] ?? {}, v);
  return out;
}

function subtract(a: FieldsTree, b: FieldsTree): FieldsTree {
  const out: FieldsTree = {};
  for (const [k, v] of Object.entries(a)) {
    const removed = b[k];
    if (removed === undefined) out[k] = v;
    else if (Object.keys(removed).length > 0 && Object.keys(v).length > 0) {
      const rest = subtract(v, removed);
      if (Object.keys(rest).filter((x) => x !== '.').length > 0) out[k] = rest;
    }
  }
  return out;
}

/** The managedFields after `manager` wrote `changed`: its entry grows, others lose those fields. */
export function recordWrite(entries: readonly ManagedFieldsEntry[], write: Omit<ManagedFieldsEntry, 'fieldsV1' | 'fieldsType'>, changed: FieldsTree): ManagedFieldsEntry[] {
  if (Object.keys(changed).length === 0) return [...entries];
  const same = (e: ManagedFieldsEntry) => e.manager === write.manager && e.operation === write.operation && (e.subresource ?? '') === (write.subresource ?? '');
  const out: ManagedFieldsEntry[] = [];
  let mine: FieldsTree = {};
  for (const e of entries) {
    if (same(e)) mine = e.fieldsV1;
    else {
      const rest = subtract(e.fieldsV1, changed);
      if (Object.keys(rest).length > 0) out.push({ ...e, fieldsV1: rest });
    }
  }
  const entry: ManagedFieldsEntry = { ...write, fieldsType: 'FieldsV1', fieldsV1: merge(mine, changed) };
  if (entry.subresource === undefined || entry.subresource === '') delete entry.subresource;
  out.push(entry);
  return out;
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
 * field when no entry remains.
 */
export function recordWriteFields(obj: KObject, old: KObject | null, decl: ResourceDeclaration, writer: FieldsWriter): void {
  const ignored = resetFields(decl, writer.subresource);
  const entries = recordUpdate({
    oldObject: old === null ? null : withoutEmptyMetadata(old),
    newObject: withoutEmptyMetadata(obj),
    manager: writer.fieldManager,
    apiVersion: writer.apiVersion,
    schema: objectPatchSchema(decl),
    now: writer.time,
    ...(writer.subresource ? { subresource: writer.subresource } : {}),
    ...(ignored ? { ignored } : {}),
  });
  if (entries.length === 0) delete obj.metadata.managedFields;
  else obj.metadata.managedFields = entries;
}
