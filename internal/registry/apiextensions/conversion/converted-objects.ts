// What kube accepts of an object a conversion webhook returns: the same kind, name, namespace and
// uid as the object sent; its labels and annotations (validated when they changed); every other
// metadata field put back as it was sent. Failures are Errors with kube's detail text.
import type { FieldError } from '../../schema/field-errors.ts';
import { validateAnnotations, validateLabels } from '../../schema/metadata-validation.ts';
import { goType, stringField } from './group-version.ts';

type Entry = Record<string, unknown>;

function isEntry(value: unknown): value is Entry {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** kube's validateConvertedObject: the identity of the object may not change. */
export function checkSameIdentity(original: Entry, converted: Entry): void {
  const meta = (o: Entry): Entry => (isEntry(o.metadata) ? o.metadata : {});
  const pairs: [string, string, string][] = [
    ['kind', stringField(original, 'kind'), stringField(converted, 'kind')],
    ['name', stringField(meta(original), 'name'), stringField(meta(converted), 'name')],
    ['namespace', stringField(meta(original), 'namespace'), stringField(meta(converted), 'namespace')],
    ['UID', stringField(meta(original), 'uid'), stringField(meta(converted), 'uid')],
  ];
  for (const [what, expected, actual] of pairs) {
    if (expected !== actual) throw new Error(`must have the same ${what}: ${expected} != ${actual}`);
  }
}

/** utilerrors' aggregate of field errors: one as itself, more in brackets. */
function aggregate(errors: readonly FieldError[]): string {
  const texts = errors.map((e) => `${e.field}: ${e.message}`);
  return texts.length === 1 ? (texts[0] ?? '') : `[${texts.join(', ')}]`;
}

/** The labels or annotations the webhook returned, checked; undefined when it returned none. */
function returnedMap(field: 'labels' | 'annotations', returned: unknown, sent: unknown): Entry | undefined {
  if (returned === undefined || returned === null) return undefined;
  if (!isEntry(returned)) throw new Error(`invalid metadata.${field} of type ${goType(returned)} in converted object`);
  if (sent !== undefined && sent !== null && !isEntry(sent)) throw new Error(`invalid metadata.${field} of type ${goType(sent)} in original object`);
  const before = isEntry(sent) ? sent : {};
  let changed = Object.keys(before).length !== Object.keys(returned).length;
  for (const [key, value] of Object.entries(returned)) {
    if (typeof value !== 'string') throw new Error(`metadata.${field}[${key}] must be a string, but is ${goType(value)} in converted object`);
    if (before[key] !== value) changed = true;
  }
  if (changed) {
    // kube names the annotations' path `metadata.annotation` here.
    const errors = field === 'labels' ? validateLabels(returned, 'metadata.labels') : validateAnnotations(returned, 'metadata.annotation');
    if (errors.length > 0) throw new Error(aggregate(errors));
  }
  return returned;
}

/**
 * kube's restoreObjectMeta: `converted` with the metadata of `original`, except labels and
 * annotations, which are the webhook's. Returns a new object; throws an Error in kube's words.
 */
export function restoreMetadata(original: Entry, converted: Entry): Entry {
  const returned = converted.metadata;
  if (returned === undefined) throw new Error('missing metadata in converted object');
  if (!isEntry(returned)) throw new Error(`invalid metadata of type ${goType(returned)} in converted object`);
  const metadata: Entry = isEntry(original.metadata) ? structuredClone(original.metadata) : {};
  for (const field of ['labels', 'annotations'] as const) {
    const kept = returnedMap(field, returned[field], metadata[field]);
    if (kept === undefined) delete metadata[field];
    else metadata[field] = kept;
  }
  return { ...converted, metadata };
}
