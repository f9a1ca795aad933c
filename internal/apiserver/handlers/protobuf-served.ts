// Which endpoints speak Protobuf: those of built-in kinds, as kube-apiserver's scopes serve them.
import type { ServedResource } from '../../registry/resource-registry.ts';
import { hasProtobuf, protobufMediaType } from '../protobuf/index.ts';

/**
 * Whether an endpoint's objects travel in Protobuf, both ways: a built-in kind's (its message
 * exists), and any kind's `scale` (autoscaling/v1 Scale, which kube serves in Protobuf even for
 * a custom resource). A custom resource's own objects have no message: its endpoints answer
 * JSON or YAML and take no Protobuf body (415), as kube-apiserver's CRD handler.
 */
export function servesProtobuf(served: ServedResource, subresource: string | undefined): boolean {
  if (subresource === 'scale' && served.decl.subresources?.scale) return hasProtobuf('autoscaling/v1', 'Scale');
  return served.decl.custom !== true && hasProtobuf(served.apiVersion, served.decl.kind);
}

const textMediaTypes: readonly string[] = ['application/json', 'application/yaml'];
const everyMediaType: readonly string[] = [...textMediaTypes, protobufMediaType];

/** The media types a POST or PUT body of this endpoint may be in, as its 415 names them. */
export function objectBodyMediaTypes(served: ServedResource, subresource: string | undefined): readonly string[] {
  return servesProtobuf(served, subresource) ? everyMediaType : textMediaTypes;
}
