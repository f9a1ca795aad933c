// What matchPolicy Equivalent needs from the server (kube's EquivalentResourceMapper and object
// convertor): the other group-versions a resource is served at, the kind there, and the
// conversion of an object to that kind. Injected by the replica; none by default.
import type { GroupVersionKind, GroupVersionResource } from '../attributes.ts';
import type { KObject } from '../../registry/schema/declaration.ts';

/** The same objects served under other groups or versions (deployments: apps/v1 and extensions/v1beta1). */
export interface EquivalentResources {
  /** Every resource serving the same objects, `resource` itself included or not, most preferred first. */
  equivalentResourcesFor(resource: GroupVersionResource, subresource: string): readonly GroupVersionResource[];
  /** The kind `resource` (with `subresource`) serves; undefined when unknown. */
  kindFor(resource: GroupVersionResource, subresource: string): GroupVersionKind | undefined;
  /** `object` converted to `kind` (a new object; the argument is not changed). */
  convert(object: KObject, kind: GroupVersionKind): KObject;
}

/** No resource has equivalents: Equivalent then behaves as Exact. */
export const noEquivalentResources: EquivalentResources = {
  equivalentResourcesFor: () => [],
  kindFor: () => undefined,
  convert: (object) => structuredClone(object),
};
