import type { ResourceRegistry, ServedResource } from '../registry/resource-registry.ts';

const allVerbs = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];
const subresourceVerbs = ['get', 'patch', 'update'];

function resourceEntries(r: ServedResource): Record<string, unknown>[] {
  const d = r.decl;
  const main: Record<string, unknown> = { name: d.plural, singularName: d.singular, namespaced: d.namespaced, kind: d.kind, verbs: allVerbs };
  if (d.shortNames?.length) main.shortNames = d.shortNames;
  if (d.categories?.length) main.categories = d.categories;
  const out = [main];
  if (d.subresources?.status) out.push({ name: `${d.plural}/status`, singularName: '', namespaced: d.namespaced, kind: d.kind, verbs: subresourceVerbs });
  if (d.subresources?.finalize) out.push({ name: `${d.plural}/finalize`, singularName: '', namespaced: d.namespaced, kind: d.kind, verbs: ['update'] });
  if (d.subresources?.scale) out.push({ name: `${d.plural}/scale`, singularName: '', namespaced: d.namespaced, group: 'autoscaling', version: 'v1', kind: 'Scale', verbs: subresourceVerbs });
  return out;
}

/** `/api`: the core group's versions. */
export function apiVersions(serverAddress: string): Record<string, unknown> {
  return { kind: 'APIVersions', versions: ['v1'], serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress }] };
}

function groupEntry(name: string, versions: readonly string[]): Record<string, unknown> {
  const list = versions.map((v) => ({ groupVersion: `${name}/${v}`, version: v }));
  return { name, versions: list, preferredVersion: list[0] };
}

/** `/apis`: every named group. */
export function apiGroupList(registry: ResourceRegistry): Record<string, unknown> {
  const groups = [...registry.groups()].filter(([g]) => g !== '').map(([g, versions]) => groupEntry(g, versions));
  return { kind: 'APIGroupList', apiVersion: 'v1', groups };
}

/** `/apis/{group}`: one group, or undefined when not served. */
export function apiGroup(registry: ResourceRegistry, group: string): Record<string, unknown> | undefined {
  const versions = registry.groups().get(group);
  if (group === '' || !versions) return undefined;
  return { kind: 'APIGroup', apiVersion: 'v1', ...groupEntry(group, versions) };
}

/** `/api/v1` or `/apis/{group}/{version}`: the resources of one group version, or undefined. */
export function apiResourceList(registry: ResourceRegistry, group: string, version: string): Record<string, unknown> | undefined {
  const served = registry.inGroupVersion(group, version);
  if (served.length === 0) return undefined;
  return { kind: 'APIResourceList', apiVersion: 'v1', groupVersion: group === '' ? version : `${group}/${version}`, resources: served.flatMap(resourceEntries) };
}

/** `/version`, answering like Kubernetes 1.28. */
export function versionInfo(): Record<string, unknown> {
  return {
    major: '1',
    minor: '28',
    gitVersion: 'v1.28.0+orch.0.1.0',
    gitCommit: 'orch',
    gitTreeState: 'clean',
    buildDate: '2026-01-01T00:00:00Z',
    goVersion: `node${process.versions.node}`,
    compiler: 'tsc',
    platform: `${process.platform}/${process.arch === 'x64' ? 'amd64' : process.arch}`,
  };
}
