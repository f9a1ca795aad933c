// A CRD version's structural schema (JSONSchemaProps) as orch's FieldSchema: what the generic
// machinery derives from a declaration — unknown-field pruning and reporting, OpenAPI, the
// server-side apply field sets and their merge markers — works on custom kinds through it.
// Values are validated against the JSONSchemaProps themselves (schema/validate-object.ts).
import type { FieldSchema, FieldType, MergeMarkers } from '../schema/field-schema.ts';
import { objectMetaSchema } from '../schema/object-meta.ts';
import { asObject } from './crd-versions.ts';

type Json = Record<string, unknown>;


function markersOf(s: Json): MergeMarkers | undefined {
  const markers: { -readonly [K in keyof MergeMarkers]: MergeMarkers[K] } = {};
  const listType = s['x-kubernetes-list-type'];
  if (listType === 'atomic' || listType === 'set' || listType === 'map') markers['x-kubernetes-list-type'] = listType;
  const keys = s['x-kubernetes-list-map-keys'];
  if (Array.isArray(keys)) markers['x-kubernetes-list-map-keys'] = keys.filter((k): k is string => typeof k === 'string');
  const mapType = s['x-kubernetes-map-type'];
  if (mapType === 'atomic' || mapType === 'granular') markers['x-kubernetes-map-type'] = mapType;
  return Object.keys(markers).length > 0 ? markers : undefined;
}

function typeOf(s: Json): FieldType {
  if (s['x-kubernetes-int-or-string'] === true) return 'int-or-string';
  switch (s.type) {
    case 'string':
    case 'integer':
    case 'number':
    case 'boolean':
    case 'array':
    case 'object':
      return s.type;
    default:
      return 'any';
  }
}

/** The embedded object's own fields: apiVersion, kind and ObjectMeta, beside what its schema lists. */
function embeddedProperties(properties: Record<string, FieldSchema>): Record<string, FieldSchema> {
  return { apiVersion: { type: 'string' }, kind: { type: 'string' }, ...properties, metadata: objectMetaSchema };
}

/** The FieldSchema of one JSONSchemaProps node. */
export function crdFieldSchema(s: Json): FieldSchema {
  const type = typeOf(s);
  const out: { -readonly [K in keyof FieldSchema]: FieldSchema[K] } = { type };
  if (typeof s.description === 'string') out.description = s.description;
  if (typeof s.format === 'string') out.format = s.format;
  if (Array.isArray(s.enum)) out.enum = s.enum as string[];
  if (s.default !== undefined) out.default = s.default;
  if (Array.isArray(s.required)) out.required = s.required.filter((r): r is string => typeof r === 'string');
  const markers = markersOf(s);
  if (markers !== undefined) out.markers = markers;
  const preserve = s['x-kubernetes-preserve-unknown-fields'] === true;
  const embedded = s['x-kubernetes-embedded-resource'] === true;
  const items = asObject(s.items);
  if (items !== undefined) out.items = crdFieldSchema(items);
  const properties = asObject(s.properties);
  const additional = asObject(s.additionalProperties);
  if (type === 'object' || (type === 'any' && (properties !== undefined || embedded))) {
    out.type = 'object';
    const own = Object.fromEntries(Object.entries(properties ?? {}).flatMap(([k, v]) => (asObject(v) ? [[k, crdFieldSchema(v as Json)]] : [])));
    if (additional !== undefined) out.additionalProperties = crdFieldSchema(additional);
    // An object that names neither fields nor values keeps none (kube prunes them all) unless it preserves them.
    else out.properties = embedded ? embeddedProperties(own) : own;
    if (preserve || s.additionalProperties === true) out.preserveUnknown = true;
  } else if (type === 'any' && preserve) out.preserveUnknown = true;
  return out;
}

/** The top-level fields of a custom kind (all but apiVersion, kind and metadata) and the required ones. */
export function crdTopLevelFields(schema: Json | undefined): { fields: Record<string, FieldSchema>; required: string[]; description: string; preserveUnknown: boolean } {
  if (schema === undefined) return { fields: {}, required: [], description: '', preserveUnknown: true };
  const root = crdFieldSchema(schema);
  const fields = Object.fromEntries(Object.entries(root.properties ?? {}).filter(([k]) => k !== 'apiVersion' && k !== 'kind' && k !== 'metadata'));
  return { fields, required: [...(root.required ?? [])], description: root.description ?? '', preserveUnknown: root.preserveUnknown === true };
}
