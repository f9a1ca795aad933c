// Resource names as kubectl resolves them: discovery (/api, /apis) lists every resource with its
// plural, singular, short names and kind; a name given on the command line matches any of them,
// optionally qualified by its group (`deployments.apps`) or version and group (`deployments.v1.apps`).
import type { OrchClient } from '../client/client.ts';
import { CtlError } from './command.ts';

/** One served resource. */
export interface ApiResource {
  /** '' for the core group. */
  readonly group: string;
  readonly version: string;
  /** The plural name, as in URLs. */
  readonly name: string;
  readonly singularName: string;
  readonly shortNames: readonly string[];
  readonly kind: string;
  readonly namespaced: boolean;
  readonly verbs: readonly string[];
  /** Whether this is its group's preferred version. */
  readonly preferred: boolean;
}

interface ApiResourceList {
  readonly resources?: readonly { name: string; singularName?: string; shortNames?: string[]; kind: string; namespaced: boolean; verbs?: string[] }[];
}

interface ApiGroupList {
  readonly groups?: readonly { name: string; versions: { groupVersion: string; version: string }[]; preferredVersion?: { version: string } }[];
}

function resourcesOf(list: ApiResourceList, group: string, version: string, preferred: boolean): ApiResource[] {
  return (list.resources ?? [])
    .filter((r) => !r.name.includes('/'))
    .map((r) => ({
      group, version, name: r.name, singularName: r.singularName ?? '', shortNames: r.shortNames ?? [], kind: r.kind, namespaced: r.namespaced, verbs: r.verbs ?? [], preferred,
    }));
}

/**
 * Every resource the cluster serves, preferred versions first (core, then groups in discovery
 * order). `signal` gives each request its own deadline (one signal shared by the many parallel
 * requests would collect more abort listeners than node allows without a warning).
 */
export async function discoverResources(client: OrchClient, signal: () => AbortSignal): Promise<ApiResource[]> {
  const [core, groups] = await Promise.all([
    client.get<ApiResourceList>('/api/v1', { signal: signal() }),
    client.get<ApiGroupList>('/apis', { signal: signal() }),
  ]);
  const versions = (groups.groups ?? []).flatMap((g) =>
    g.versions.map((v) => ({ group: g.name, version: v.version, preferred: (g.preferredVersion?.version ?? g.versions[0]?.version) === v.version })),
  );
  const lists = await Promise.all(
    versions.map(async (v) => resourcesOf(await client.get<ApiResourceList>(`/apis/${v.group}/${v.version}`, { signal: signal() }), v.group, v.version, v.preferred)),
  );
  const all = [...resourcesOf(core, '', 'v1', true), ...lists.flat()];
  return [...all.filter((r) => r.preferred), ...all.filter((r) => !r.preferred)];
}

function matchesName(resource: ApiResource, name: string): boolean {
  return resource.name === name || resource.singularName === name || resource.shortNames.includes(name) || resource.kind.toLowerCase() === name;
}

/**
 * The resource `text` names (case-insensitive): `pods`, `pod`, `po`, `Pod`, `deployments.apps`,
 * `deployments.v1.apps`. The preferred version wins when several match. Throws CtlError (exit 1)
 * naming what was asked when nothing matches.
 */
export function resolveResource(resources: readonly ApiResource[], text: string): ApiResource {
  const wanted = text.toLowerCase();
  const candidates: Array<{ name: string; group?: string; version?: string }> = [{ name: wanted }];
  const dot = wanted.indexOf('.');
  if (dot > 0) {
    const name = wanted.slice(0, dot);
    const rest = wanted.slice(dot + 1);
    candidates.push({ name, group: rest });
    const second = rest.indexOf('.');
    if (second > 0) candidates.push({ name, version: rest.slice(0, second), group: rest.slice(second + 1) });
    // `name.v1` for a core resource, as kubectl accepts `pods.v1`.
    candidates.push({ name, version: rest, group: '' });
  }
  for (const candidate of candidates) {
    const found = resources.find(
      (r) => matchesName(r, candidate.name) && (candidate.group === undefined || r.group === candidate.group) && (candidate.version === undefined || r.version === candidate.version),
    );
    if (found !== undefined) return found;
  }
  throw new CtlError(`the server doesn't have a resource type "${text}"; check the spelling (kubectl api-resources against the same kubeconfig lists the names it serves)`);
}

/** The resource of a manifest's apiVersion and kind (`apps/v1`, `Deployment`). */
export function resourceForKind(resources: readonly ApiResource[], apiVersion: string, kind: string): ApiResource {
  const slash = apiVersion.indexOf('/');
  const group = slash < 0 ? '' : apiVersion.slice(0, slash);
  const version = slash < 0 ? apiVersion : apiVersion.slice(slash + 1);
  const found = resources.find((r) => r.kind === kind && r.group === group && r.version === version);
  if (found === undefined) throw new CtlError(`the server has no kind ${kind} in ${apiVersion}; check the manifest's apiVersion and kind (or install its CustomResourceDefinition first)`);
  return found;
}

/** The collection path of a resource: in `namespace`, or across all namespaces / cluster-scoped when undefined. */
export function collectionPath(resource: ApiResource, namespace: string | undefined): string {
  const base = resource.group === '' ? `/api/${resource.version}` : `/apis/${resource.group}/${resource.version}`;
  const scope = resource.namespaced && namespace !== undefined ? `/namespaces/${encodeURIComponent(namespace)}` : '';
  return `${base}${scope}/${resource.name}`;
}

/** The path of one object. */
export function objectPath(resource: ApiResource, namespace: string | undefined, name: string): string {
  return `${collectionPath(resource, namespace)}/${encodeURIComponent(name)}`;
}

/** How kubectl names an object in its output: `configmap/x`, `deployment.apps/web`. */
export function displayName(resource: ApiResource, name: string): string {
  return `${resource.kind.toLowerCase()}${resource.group === '' ? '' : `.${resource.group}`}/${name}`;
}
