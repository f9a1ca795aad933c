import type { ResourceRegistry, ServedResource } from '../registry/resource-registry.ts';
import { gitVersion } from '../version.ts';

const allVerbs = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];
const subresourceVerbs = ['get', 'patch', 'update'];

/**
 * One entry of a group version's legacy resource list (meta/v1 APIResource): a resource, or a
 * sub-resource named `plural/sub`. `group` and `version` are set only when the kind served is of
 * another group version (a scale sub-resource's autoscaling/v1 Scale). The aggregated document is
 * made from these same entries.
 */
export interface ApiResourceEntry {
  readonly name: string;
  readonly singularName: string;
  readonly namespaced: boolean;
  readonly group?: string;
  readonly version?: string;
  readonly kind: string;
  readonly verbs: readonly string[];
  readonly shortNames?: readonly string[];
  readonly categories?: readonly string[];
}

function resourceEntries(r: ServedResource): ApiResourceEntry[] {
  const d = r.decl;
  const main: ApiResourceEntry = {
    name: d.plural, singularName: d.singular, namespaced: d.namespaced, kind: d.kind, verbs: d.verbs ?? allVerbs,
    ...(d.shortNames?.length ? { shortNames: d.shortNames } : {}),
    ...(d.categories?.length ? { categories: d.categories } : {}),
  };
  const subs: ApiResourceEntry[] = [];
  if (d.subresources?.status) subs.push({ name: `${d.plural}/status`, singularName: '', namespaced: d.namespaced, kind: d.kind, verbs: subresourceVerbs });
  if (d.subresources?.finalize) subs.push({ name: `${d.plural}/finalize`, singularName: '', namespaced: d.namespaced, kind: d.kind, verbs: ['update'] });
  if (d.subresources?.scale) subs.push({ name: `${d.plural}/scale`, singularName: '', namespaced: d.namespaced, group: 'autoscaling', version: 'v1', kind: 'Scale', verbs: subresourceVerbs });
  for (const [sub, s] of Object.entries(d.subresources?.more ?? {})) {
    subs.push({ name: `${d.plural}/${sub}`, singularName: '', namespaced: d.namespaced, ...(s.kindGroupVersion ?? {}), kind: s.kind, verbs: [...s.verbs].sort() });
  }
  // kube-apiserver lists a resource's sub-resources by name.
  return [main, ...subs.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))];
}

const kubeVersion = /^v(\d+)(?:(alpha|beta)(\d+))?$/;
const stabilityRank: Readonly<Record<string, number>> = { '': 0, beta: 1, alpha: 2 };

/**
 * Orders versions as Kubernetes prefers them (upstream `CompareKubeAwareVersionStrings`): GA
 * before beta before alpha, higher numbers first within each, then versions of other shapes by
 * name. Negative when `a` is preferred.
 */
export function compareVersionPreference(a: string, b: string): number {
  const ma = kubeVersion.exec(a);
  const mb = kubeVersion.exec(b);
  if (!ma || !mb) return ma ? -1 : mb ? 1 : a < b ? -1 : a > b ? 1 : 0;
  const rank = (stabilityRank[ma[2] ?? ''] ?? 0) - (stabilityRank[mb[2] ?? ''] ?? 0);
  if (rank !== 0) return rank;
  const major = Number(mb[1]) - Number(ma[1]);
  return major !== 0 ? major : Number(mb[3] ?? 0) - Number(ma[3] ?? 0);
}

/** Served groups (core '' first, then in declaration order), each with its versions preferred first. */
export function servedGroupVersions(registry: ResourceRegistry): [group: string, versions: string[]][] {
  return [...registry.groups()].map(([g, versions]) => [g, [...versions].sort(compareVersionPreference)]);
}

/** The legacy resource list entries of one group version, in declaration order (empty when not served). */
export function groupVersionResources(registry: ResourceRegistry, group: string, version: string): ApiResourceEntry[] {
  return registry.inGroupVersion(group, version).flatMap(resourceEntries);
}

/** `/api`: the core group's versions. */
export function apiVersions(serverAddress: string): Record<string, unknown> {
  return { kind: 'APIVersions', versions: ['v1'], serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress }] };
}

/**
 * `/api` with its apiVersion named: APIVersions is an unversioned kind of the core group, and a
 * Protobuf body's typeMeta names it `v1` (the JSON answer omits it).
 */
export function apiVersionsTyped(serverAddress: string): Record<string, unknown> {
  return { apiVersion: 'v1', ...apiVersions(serverAddress) };
}

function groupEntry(name: string, versions: readonly string[]): Record<string, unknown> {
  const list = versions.map((v) => ({ groupVersion: `${name}/${v}`, version: v }));
  return { name, versions: list, preferredVersion: list[0] };
}

/** `/apis`: every named group. */
export function apiGroupList(registry: ResourceRegistry): Record<string, unknown> {
  const groups = servedGroupVersions(registry).filter(([g]) => g !== '').map(([g, versions]) => groupEntry(g, versions));
  return { kind: 'APIGroupList', apiVersion: 'v1', groups };
}

/** `/apis/{group}`: one group, or undefined when not served. */
export function apiGroup(registry: ResourceRegistry, group: string): Record<string, unknown> | undefined {
  const versions = servedGroupVersions(registry).find(([g]) => g === group)?.[1];
  if (group === '' || !versions) return undefined;
  return { kind: 'APIGroup', apiVersion: 'v1', ...groupEntry(group, versions) };
}

/** `/api/v1` or `/apis/{group}/{version}`: the resources of one group version, or undefined. */
export function apiResourceList(registry: ResourceRegistry, group: string, version: string): Record<string, unknown> | undefined {
  const resources = groupVersionResources(registry, group, version);
  if (resources.length === 0) return undefined;
  return { kind: 'APIResourceList', apiVersion: 'v1', groupVersion: group === '' ? version : `${group}/${version}`, resources };
}

/** `/version`, answering like Kubernetes 1.28. */
export function versionInfo(): Record<string, unknown> {
  return {
    major: '1',
    minor: '28',
    gitVersion,
    gitCommit: 'orch',
    gitTreeState: 'clean',
    buildDate: '2026-01-01T00:00:00Z',
    goVersion: `node${process.versions.node}`,
    compiler: 'tsc',
    platform: `${process.platform}/${process.arch === 'x64' ? 'amd64' : process.arch}`,
  };
}
