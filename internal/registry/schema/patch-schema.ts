// The declared field schemas in the form the patch layer (strategic merge patch, server-side
// apply) walks: OpenAPI v3 structure with Kubernetes' merge markers.
import type { Schema } from '../../patch/index.ts';
import type { ResourceDeclaration } from './declaration.ts';
import type { FieldSchema, MergeMarkers } from './field-schema.ts';
import { objectMetaSchema } from './object-meta.ts';

/** The `x-kubernetes-*` merge-marker extensions of a schema node, for OpenAPI output. */
export function markerExtensions(s: FieldSchema): Record<string, unknown> {
  return s.markers === undefined ? {} : { ...s.markers };
}

function copyMarkers(markers: MergeMarkers | undefined): Partial<Schema> {
  if (markers === undefined) return {};
  const out: Partial<Schema> = {};
  if (markers['x-kubernetes-patch-strategy'] !== undefined) out['x-kubernetes-patch-strategy'] = markers['x-kubernetes-patch-strategy'];
  if (markers['x-kubernetes-patch-merge-key'] !== undefined) out['x-kubernetes-patch-merge-key'] = markers['x-kubernetes-patch-merge-key'];
  if (markers['x-kubernetes-list-type'] !== undefined) out['x-kubernetes-list-type'] = markers['x-kubernetes-list-type'];
  if (markers['x-kubernetes-list-map-keys'] !== undefined) out['x-kubernetes-list-map-keys'] = [...markers['x-kubernetes-list-map-keys']];
  if (markers['x-kubernetes-map-type'] !== undefined) out['x-kubernetes-map-type'] = markers['x-kubernetes-map-type'];
  return out;
}

/** Converted nodes: a schema that refers to itself (JSONSchemaProps) converts to a cyclic graph, once. */
const converted = new WeakMap<FieldSchema, Schema>();

/**
 * The patch-layer schema of one field schema. `any` becomes undefined (unstructured); objects
 * that preserve unknown fields describe only their listed fields, the rest being unstructured.
 */
export function toPatchSchema(s: FieldSchema): Schema | undefined {
  const known = converted.get(s);
  if (known !== undefined) return known;
  const base: Schema = { ...copyMarkers(s.markers), ...(s.default !== undefined ? { default: s.default } : {}) };
  switch (s.type) {
    case 'any':
      return undefined;
    case 'int-or-string':
      return { ...base, 'x-kubernetes-int-or-string': true };
    case 'array': {
      const out: Schema = { ...base, type: 'array' };
      // Registered before its parts, so that a reference back to it finds it.
      converted.set(s, out);
      const items = s.items === undefined ? undefined : toPatchSchema(s.items);
      if (items !== undefined) out.items = items;
      return out;
    }
    case 'object': {
      const out: Schema = { ...base, type: 'object' };
      converted.set(s, out);
      if (s.properties !== undefined) out.properties = convertProperties(s.properties);
      const extra = s.additionalProperties === undefined ? undefined : toPatchSchema(s.additionalProperties);
      if (extra !== undefined) out.additionalProperties = extra;
      if (s.preserveUnknown) out['x-kubernetes-preserve-unknown-fields'] = true;
      return out;
    }
    default:
      return { ...base, type: s.type };
  }
}

function convertProperties(props: Readonly<Record<string, FieldSchema>>): Record<string, Schema> {
  const out: Record<string, Schema> = {};
  for (const [name, field] of Object.entries(props)) {
    // An undescribed field still needs an entry so the object stays structured around it.
    out[name] = toPatchSchema(field) ?? {};
  }
  return out;
}

const cache = new WeakMap<ResourceDeclaration, Schema>();

/** The patch-layer schema of a whole object of the declared kind (memoized per declaration). */
export function objectPatchSchema(decl: ResourceDeclaration): Schema {
  const known = cache.get(decl);
  if (known !== undefined) return known;
  const schema: Schema = {
    type: 'object',
    properties: {
      apiVersion: { type: 'string' },
      kind: { type: 'string' },
      metadata: toPatchSchema(objectMetaSchema) ?? {},
      ...convertProperties(decl.fields),
    },
  };
  cache.set(decl, schema);
  return schema;
}
