import type { KObject } from './declaration.ts';
import { field, text } from './printers.ts';

/** The value an object has for one field selector label, rendered as kube-apiserver's field sets do. */
export type FieldLabelValue = (obj: KObject) => string;

/** metadata.name and metadata.namespace, which the conversions of namespaced kinds take. */
export const objectMetaFieldLabels: Readonly<Record<'metadata.name' | 'metadata.namespace', FieldLabelValue>> = {
  'metadata.name': (o) => o.metadata.name ?? '',
  'metadata.namespace': (o) => o.metadata.namespace ?? '',
};

/** A string field by dotted path; "" when absent. */
export function textLabel(path: string): FieldLabelValue {
  return (o) => text(o, path);
}

/** A boolean field by dotted path as Go prints it: "true", or "false" when false or absent. */
export function boolLabel(path: string): FieldLabelValue {
  return (o) => String(field(o, path) === true);
}
