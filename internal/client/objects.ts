// The few shapes of API objects the client library needs to look at.

/** Metadata fields the client reads; everything else passes through untouched. */
export interface ObjectMeta {
  readonly name?: string;
  readonly namespace?: string;
  readonly resourceVersion?: string;
  readonly [field: string]: unknown;
}

/** Any API object: the client only relies on `metadata`. */
export interface KubeObject {
  readonly metadata?: ObjectMeta;
  readonly [field: string]: unknown;
}

/** A collection answer: items plus the list's resourceVersion and continue token. */
export interface ObjectList<T extends KubeObject = KubeObject> {
  readonly metadata?: { readonly resourceVersion?: string; readonly continue?: string };
  readonly items?: readonly T[];
}

/** Cache key of an object: `namespace/name`, or `name` for cluster-scoped objects. */
export function objectKey(object: KubeObject): string {
  const name = object.metadata?.name ?? '';
  const namespace = object.metadata?.namespace;
  return namespace === undefined || namespace === '' ? name : `${namespace}/${name}`;
}

/** The object's resourceVersion, or '' when it has none. */
export function resourceVersionOf(object: KubeObject | undefined): string {
  return object?.metadata?.resourceVersion ?? '';
}
