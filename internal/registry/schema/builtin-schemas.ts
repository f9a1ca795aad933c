// The structural schemas of Kubernetes' built-in kinds, as scripts/generate-builtin-schemas.ts
// derived them from the official v1.28 OpenAPI document (generated/builtin-schemas.json).
// References between definitions are resolved here, once per definition, into shared FieldSchema
// nodes; a definition that refers to itself (JSONSchemaProps) becomes a cyclic graph, which
// walking a finite value never loops on.
import { readFileSync } from 'node:fs';
import type { FieldSchema } from './field-schema.ts';

/** A generated node: a FieldSchema whose nested schemas may be references to definitions. */
interface GeneratedNode {
  readonly type?: FieldSchema['type'];
  readonly format?: string;
  readonly properties?: Readonly<Record<string, GeneratedNode>>;
  readonly additionalProperties?: GeneratedNode;
  readonly items?: GeneratedNode;
  readonly required?: readonly string[];
  readonly default?: unknown;
  readonly preserveUnknown?: boolean;
  readonly markers?: FieldSchema['markers'];
  readonly $ref?: string;
}

let generated: Readonly<Record<string, GeneratedNode>> | undefined;
const resolved = new Map<string, FieldSchema>();

function definitions(): Readonly<Record<string, GeneratedNode>> {
  generated ??= JSON.parse(readFileSync(new URL('./generated/builtin-schemas.json', import.meta.url), 'utf8')) as Record<string, GeneratedNode>;
  return generated;
}

/** The schema of a definition of the official document, e.g. `io.k8s.api.core.v1.PodSpec`. */
export function builtinSchema(definition: string): FieldSchema {
  const known = resolved.get(definition);
  if (known !== undefined) return known;
  const node = definitions()[definition];
  if (node === undefined) throw new Error(`assert: no definition ${definition} in the v1.28 OpenAPI document`);
  // Registered before its fields are resolved, so that a reference back to it finds it.
  const schema: { -readonly [K in keyof FieldSchema]: FieldSchema[K] } = { type: 'any', definition };
  resolved.set(definition, schema);
  Object.assign(schema, resolveNode(node));
  schema.definition = definition;
  return schema;
}

/**
 * The top-level fields of a kind other than apiVersion, kind and metadata, which every object
 * schema adds itself (objectSchema).
 */
export function builtinFields(definition: string): Readonly<Record<string, FieldSchema>> {
  const { apiVersion: _apiVersion, kind: _kind, metadata: _metadata, ...fields } = builtinSchema(definition).properties ?? {};
  return fields;
}

/**
 * The required top-level fields of a kind, as the document lists them. Informational for built-in
 * kinds: their strategies check required fields with kube-apiserver's messages, and decoding does not.
 */
export function builtinRequired(definition: string): readonly string[] {
  return (builtinSchema(definition).required ?? []).filter((f) => f !== 'apiVersion' && f !== 'kind' && f !== 'metadata');
}

function resolveNode(node: GeneratedNode): FieldSchema {
  if (node.$ref !== undefined) {
    const target = builtinSchema(node.$ref);
    return node.markers === undefined ? target : { ...target, markers: { ...target.markers, ...node.markers } };
  }
  return {
    type: node.type ?? 'any',
    ...(node.format === undefined ? {} : { format: node.format }),
    ...(node.properties === undefined ? {} : { properties: Object.fromEntries(Object.entries(node.properties).map(([k, v]) => [k, resolveNode(v)])) }),
    ...(node.additionalProperties === undefined ? {} : { additionalProperties: resolveNode(node.additionalProperties) }),
    ...(node.items === undefined ? {} : { items: resolveNode(node.items) }),
    ...(node.required === undefined ? {} : { required: node.required }),
    ...(node.default === undefined ? {} : { default: node.default }),
    ...(node.preserveUnknown === true ? { preserveUnknown: true } : {}),
    ...(node.markers === undefined ? {} : { markers: node.markers }),
  };
}
