// The part of a CustomResourceDefinition structural schema (JSONSchemaProps as plain JSON) the
// expression layer reads.

/** One `x-kubernetes-validations` entry. */
export interface ValidationRule {
  readonly rule: string;
  readonly message?: string;
  readonly messageExpression?: string;
  readonly reason?: 'FieldValueInvalid' | 'FieldValueForbidden' | 'FieldValueRequired' | 'FieldValueDuplicate';
  readonly fieldPath?: string;
}

/** A structural schema node, as it appears in a CRD's `openAPIV3Schema`. */
export interface StructuralSchema {
  readonly type?: string;
  readonly format?: string;
  readonly properties?: Readonly<Record<string, StructuralSchema>>;
  readonly additionalProperties?: StructuralSchema | boolean;
  readonly items?: StructuralSchema;
  readonly required?: readonly string[];
  readonly nullable?: boolean;
  readonly enum?: readonly unknown[];
  readonly default?: unknown;
  readonly maxItems?: number;
  readonly maxLength?: number;
  readonly maxProperties?: number;
  readonly allOf?: readonly StructuralSchema[];
  readonly 'x-kubernetes-int-or-string'?: boolean;
  readonly 'x-kubernetes-preserve-unknown-fields'?: boolean;
  readonly 'x-kubernetes-embedded-resource'?: boolean;
  readonly 'x-kubernetes-list-type'?: 'atomic' | 'set' | 'map';
  readonly 'x-kubernetes-list-map-keys'?: readonly string[];
  readonly 'x-kubernetes-map-type'?: 'atomic' | 'granular';
  readonly 'x-kubernetes-validations'?: readonly ValidationRule[];
}

/** The schema's `additionalProperties` when it is a schema (not a boolean). */
export function additionalPropertiesSchema(schema: StructuralSchema): StructuralSchema | undefined {
  const ap = schema.additionalProperties;
  return typeof ap === 'object' ? ap : undefined;
}

const stringSchema: StructuralSchema = { type: 'string' };

/**
 * The schema as seen at the root of a resource (the custom resource, or an embedded resource):
 * `apiVersion`, `kind`, `metadata.name` and `metadata.generateName` are always there, and nothing
 * else of `metadata` is (kube `WithTypeAndObjectMeta`).
 */
export function withTypeAndObjectMeta(schema: StructuralSchema): StructuralSchema {
  return {
    ...schema,
    properties: {
      ...schema.properties,
      apiVersion: stringSchema,
      kind: stringSchema,
      metadata: { type: 'object', properties: { name: stringSchema, generateName: stringSchema } },
    },
  };
}
