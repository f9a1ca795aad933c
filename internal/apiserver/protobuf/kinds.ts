// Which Protobuf message carries a group/version/kind, as kube-apiserver registers them: each
// built-in group's kinds in its k8s.io/api package (the kinds the OpenAPI document lists with
// x-kubernetes-group-version-kind, and their Lists), the kinds metav1.AddToGroupVersion registers
// in every group version (WatchEvent, the options) and the unversioned ones (Status, discovery),
// meta.k8s.io's PartialObjectMetadata(List), and the aggregated discovery document.
// metav1.Table has no message (kube-apiserver never serves it in Protobuf); custom resources have none.
import type protobuf from 'protobufjs';
import { kindCacheEntriesMax } from './limits.ts';
import { jsonShapeOf } from './openapi-fields.ts';
import { lookupMessage } from './proto-root.ts';

const metaPackage = 'k8s.io.apimachinery.pkg.apis.meta.v1';

/** Kinds every group version serves from the meta package (metav1.AddToGroupVersion, the unversioned kinds). */
const everyVersionKinds: ReadonlySet<string> = new Set([
  'Status', 'WatchEvent', 'DeleteOptions', 'ListOptions', 'GetOptions', 'CreateOptions', 'UpdateOptions', 'PatchOptions',
  'APIGroupList', 'APIGroup', 'APIVersions', 'APIResourceList',
]);

/** Messages kube serves as kinds that the OpenAPI document does not list as such. */
const unlistedKinds: ReadonlySet<string> = new Set([
  `${metaPackage}.PartialObjectMetadata`, `${metaPackage}.PartialObjectMetadataList`,
  'k8s.io.apimachinery.pkg.apis.meta.v1beta1.PartialObjectMetadataList',
  'k8s.io.api.apidiscovery.v2beta1.APIGroupDiscoveryList',
  'k8s.io.api.core.v1.List',
]);

/** meta.k8s.io/v1beta1 kinds whose message is v1's (kube registers the v1 Go type under both). */
const metaV1beta1AsV1: ReadonlySet<string> = new Set(['PartialObjectMetadata']);

/** The k8s.io/api package suffix of each built-in group, by the group's first labels. */
const groupBases: ReadonlyArray<readonly [string, string]> = [
  ['meta', 'k8s.io.apimachinery.pkg.apis.meta'],
  ['rbac.authorization', 'k8s.io.api.rbac'],
  ['flowcontrol.apiserver', 'k8s.io.api.flowcontrol'],
  ['internal.apiserver', 'k8s.io.api.apiserverinternal'],
  ['apiregistration', 'k8s.io.kube_aggregator.pkg.apis.apiregistration'],
  ['apiextensions', 'k8s.io.apiextensions_apiserver.pkg.apis.apiextensions'],
  ...['admissionregistration', 'apps', 'authentication', 'authorization', 'autoscaling', 'batch', 'certificates', 'coordination', 'discovery',
    'events', 'extensions', 'networking', 'node', 'policy', 'resource', 'scheduling', 'storage', 'admission', 'imagepolicy', 'apidiscovery']
    .map((g): readonly [string, string] => [g, `k8s.io.api.${g}`]),
];

/**
 * The proto package of a served group: the core group is `''`; a named group is `<base>` (`apps`)
 * or `<base>.<domain>` (`rbac.authorization.k8s.io`, or orch's own domain). Longest base first.
 */
function packageOf(group: string): string | undefined {
  if (group === '') return 'k8s.io.api.core';
  for (const [base, pkg] of groupBases) if (group === base || group.startsWith(`${base}.`)) return pkg;
  return undefined;
}

/** Whether a message is sent alone as a kind, not only as a part of one. */
function isKindMessage(fullName: string): boolean {
  if (unlistedKinds.has(fullName)) return true;
  if (jsonShapeOf(fullName)?.servedKind === true) return true;
  // A List of a served kind (the document lists PodList itself, but not every List).
  return fullName.endsWith('List') && jsonShapeOf(fullName.slice(0, -'List'.length))?.servedKind === true;
}

function resolveType(apiVersion: string, kind: string): protobuf.Type | undefined {
  if (!/^[A-Z][A-Za-z0-9]*$/.test(kind)) return undefined;
  const slash = apiVersion.lastIndexOf('/');
  const group = slash < 0 ? '' : apiVersion.slice(0, slash);
  const version = apiVersion.slice(slash + 1);
  if (!/^v[0-9]+((alpha|beta)[0-9]+)?$/.test(version)) return undefined;
  // In every group version, a custom resource's too: client-go and the garbage collector send
  // DeleteOptions in Protobuf to custom resource endpoints, which kube-apiserver reads.
  if (everyVersionKinds.has(kind)) return lookupMessage(`${metaPackage}.${kind}`);
  const pkg = packageOf(group);
  if (pkg === undefined) return undefined;
  const fullName = pkg === 'k8s.io.apimachinery.pkg.apis.meta' && version === 'v1beta1' && metaV1beta1AsV1.has(kind) ? `${metaPackage}.${kind}` : `${pkg}.${version}.${kind}`;
  return isKindMessage(fullName) ? lookupMessage(fullName) : undefined;
}

const cache = new Map<string, protobuf.Type | null>();

/** The message of a group/version/kind, or undefined when kube-apiserver has none (custom resources, Table). */
export function messageTypeOf(apiVersion: string, kind: string): protobuf.Type | undefined {
  const key = `${apiVersion}\u0000${kind}`;
  let type = cache.get(key);
  if (type === undefined) {
    type = resolveType(apiVersion, kind) ?? null;
    if (cache.size < kindCacheEntriesMax) cache.set(key, type);
  }
  return type ?? undefined;
}

/**
 * Whether a Protobuf message exists for that apiVersion and kind: built-in kinds and their Lists,
 * Status, the options, the review kinds, Scale, Eviction, PartialObjectMetadata(List), discovery.
 * False for Table and for groups orch does not build in. Callers ask it for built-in resources only:
 * a custom resource group named like a built-in one (`apps.example.com`) would match by name.
 */
export function hasProtobuf(apiVersion: string, kind: string): boolean {
  return messageTypeOf(apiVersion, kind) !== undefined;
}
