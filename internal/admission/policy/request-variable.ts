// The `request` and `namespaceObject` variables of admission expressions, shaped as kube-apiserver
// 1.28 builds them (plugin/cel's CreateAdmissionRequest and CreateNamespaceObject): an
// AdmissionRequest without uid, object and oldObject, its kind and resource those the policy
// matched (an equivalent's under matchPolicy Equivalent), and the namespace's metadata, spec and status.
import type { KObject } from '../../registry/schema/declaration.ts';
import type { AdmissionAttributes, GroupVersionKind, GroupVersionResource } from '../attributes.ts';

/** The AdmissionRequest as an expression reads it; omitempty fields are left out when empty, as Go writes them. */
export function requestVariable(attributes: AdmissionAttributes, matched: { readonly resource: GroupVersionResource; readonly kind: GroupVersionKind }): Record<string, unknown> {
  const { userInfo } = attributes;
  const user: Record<string, unknown> = {};
  if (userInfo.username !== '') user.username = userInfo.username;
  if (userInfo.uid !== '') user.uid = userInfo.uid;
  if (userInfo.groups.length > 0) user.groups = [...userInfo.groups];
  if (Object.keys(userInfo.extra).length > 0) user.extra = Object.fromEntries(Object.entries(userInfo.extra).map(([k, v]) => [k, [...v]]));
  const request: Record<string, unknown> = {
    uid: '',
    kind: { ...matched.kind },
    resource: { ...matched.resource },
    requestKind: { ...attributes.kind },
    requestResource: { ...attributes.resource },
    operation: attributes.operation,
    userInfo: user,
    object: null,
    oldObject: null,
    dryRun: attributes.dryRun,
    options: attributes.operationOptions === undefined ? null : structuredClone(attributes.operationOptions),
  };
  if (attributes.subresource !== '') {
    request.subResource = attributes.subresource;
    request.requestSubResource = attributes.subresource;
  }
  if (attributes.name !== '') request.name = attributes.name;
  if (attributes.namespace !== '') request.namespace = attributes.namespace;
  return request;
}

const namespaceMetadataFields = ['name', 'generateName', 'namespace', 'uid', 'resourceVersion', 'generation', 'creationTimestamp', 'deletionTimestamp', 'deletionGracePeriodSeconds', 'labels', 'annotations', 'finalizers'];

/** A Namespace as `namespaceObject` shows it: its metadata without managed fields and owners, spec and status. */
export function namespaceVariable(namespace: KObject): Record<string, unknown> {
  const metadata: Record<string, unknown> = {};
  for (const field of namespaceMetadataFields) {
    const value = namespace.metadata[field];
    if (value !== undefined) metadata[field] = structuredClone(value);
  }
  // kube builds a typed Namespace without its TypeMeta: no apiVersion or kind.
  return {
    metadata,
    spec: structuredClone(namespace.spec ?? {}),
    status: structuredClone(namespace.status ?? {}),
  };
}
