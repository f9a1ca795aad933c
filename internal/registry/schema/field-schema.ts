/**
 * A small structural schema: enough to check field types, find unknown fields, prune them and
 * derive OpenAPI. `preserveUnknown` objects keep (and never report) fields they do not list.
 */

/** The type of one schema node. `int-or-string` accepts either; `any` accepts everything. */
export type FieldType = 'string' | 'integer' | 'number' | 'boolean' | 'array' | 'object' | 'int-or-string' | 'any';

/** One node of a structural schema. */
export interface FieldSchema {
  readonly type: FieldType;
  readonly description?: string;
  /** Named fields of an object. */
  readonly properties?: Readonly<Record<string, FieldSchema>>;
  /** Values of a map-like object (`additionalProperties`). */
  readonly additionalProperties?: FieldSchema;
  /** Elements of an array. */
  readonly items?: FieldSchema;
  readonly required?: readonly string[];
  readonly enum?: readonly string[];
  readonly format?: string;
  /** Value the server defaults when the field is omitted (used for list-map keys such as a port's protocol). */
  readonly default?: unknown;
  /** Unlisted fields of this object are kept and not reported as unknown. */
  readonly preserveUnknown?: boolean;
  /** Kubernetes' merge markers (`x-kubernetes-*` extensions) steering strategic merge patch and server-side apply. */
  readonly markers?: MergeMarkers;
  /** The OpenAPI definition this node was derived from (`io.k8s.api.core.v1.PodSpec`), for built-in kinds. */
  readonly definition?: string;
}

/** Kubernetes' merge markers of one field, named as their OpenAPI extensions. */
export interface MergeMarkers {
  readonly 'x-kubernetes-patch-strategy'?: string;
  readonly 'x-kubernetes-patch-merge-key'?: string;
  readonly 'x-kubernetes-list-type'?: 'atomic' | 'set' | 'map';
  readonly 'x-kubernetes-list-map-keys'?: readonly string[];
  readonly 'x-kubernetes-map-type'?: 'atomic' | 'granular';
}

/** A string field. */
export function str(description?: string, extra: Partial<FieldSchema> = {}): FieldSchema {
  return { type: 'string', ...(description ? { description } : {}), ...extra };
}

/** An integer field. */
export function int(description?: string): FieldSchema {
  return { type: 'integer', format: 'int32', ...(description ? { description } : {}) };
}

/** A boolean field. */
export function bool(description?: string): FieldSchema {
  return { type: 'boolean', ...(description ? { description } : {}) };
}

/** An RFC 3339 timestamp string. */
export function time(description?: string): FieldSchema {
  return { type: 'string', format: 'date-time', ...(description ? { description } : {}) };
}

/** A field holding an integer or a string (ports, percentages). */
export function intOrString(description?: string): FieldSchema {
  return { type: 'int-or-string', ...(description ? { description } : {}) };
}

/** A field of any JSON value, never checked. */
export function anyValue(description?: string): FieldSchema {
  return { type: 'any', ...(description ? { description } : {}) };
}

/** An object with the given fields. */
export function obj(properties: Record<string, FieldSchema>, opts: { required?: string[]; description?: string; preserveUnknown?: boolean } = {}): FieldSchema {
  return { type: 'object', properties, ...opts };
}

/** An object with unlisted fields allowed (a large built-in structure we only partly describe). */
export function open(properties: Record<string, FieldSchema> = {}, description?: string): FieldSchema {
  return { type: 'object', properties, preserveUnknown: true, ...(description ? { description } : {}) };
}

/** A map from string keys to values of one schema. */
export function mapOf(values: FieldSchema, description?: string): FieldSchema {
  return { type: 'object', additionalProperties: values, ...(description ? { description } : {}) };
}

/** An array of elements of one schema. */
export function arr(items: FieldSchema, description?: string): FieldSchema {
  return { type: 'array', items, ...(description ? { description } : {}) };
}

/**
 * A list merged by key, as Kubernetes marks it: `patchStrategy=merge`, `patchMergeKey=<first key>`,
 * `listType=map` with `listMapKeys` (the merge key alone unless more are given).
 */
export function mapList(items: FieldSchema, keys: readonly [string, ...string[]], description?: string): FieldSchema {
  const markers: MergeMarkers = {
    'x-kubernetes-patch-strategy': 'merge',
    'x-kubernetes-patch-merge-key': keys[0],
    'x-kubernetes-list-type': 'map',
    'x-kubernetes-list-map-keys': keys,
  };
  return { ...arr(items, description), markers };
}

/** A list of unique scalars merged as a set (`patchStrategy=merge`, `listType=set`). */
export function setList(items: FieldSchema, description?: string): FieldSchema {
  return { ...arr(items, description), markers: { 'x-kubernetes-patch-strategy': 'merge', 'x-kubernetes-list-type': 'set' } };
}

/** A list owned and replaced as a whole (`listType=atomic`). */
export function atomicList(items: FieldSchema, description?: string): FieldSchema {
  return { ...arr(items, description), markers: { 'x-kubernetes-list-type': 'atomic' } };
}

/** `schema` with extra merge markers (e.g. `x-kubernetes-map-type: atomic` on a struct). */
export function withMarkers(schema: FieldSchema, markers: MergeMarkers): FieldSchema {
  return { ...schema, markers: { ...schema.markers, ...markers } };
}

/** Status conditions: a list keyed by `type`, each condition otherwise partly described. */
export function conditionList(item: FieldSchema = open({ type: str(), status: str() })): FieldSchema {
  return mapList(item, ['type']);
}
