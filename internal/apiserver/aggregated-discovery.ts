import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import type { ResourceRegistry } from '../registry/resource-registry.ts';
import { groupVersionResources, servedGroupVersions, type ApiResourceEntry } from './discovery.ts';
import { encodeProtobuf } from './protobuf/index.ts';

/** The group version kind a resource or sub-resource answers with ('' group and version: its own). */
interface ResponseKind {
  readonly group: string;
  readonly version: string;
  readonly kind: string;
}

interface SubresourceDiscovery {
  readonly subresource: string;
  readonly responseKind: ResponseKind;
  readonly verbs: readonly string[];
}

interface ResourceDiscovery {
  readonly resource: string;
  readonly responseKind: ResponseKind;
  readonly scope: 'Cluster' | 'Namespaced';
  readonly singularResource: string;
  readonly verbs: readonly string[];
  readonly shortNames?: readonly string[];
  readonly categories?: readonly string[];
  subresources?: SubresourceDiscovery[];
}

/** An `apidiscovery.k8s.io/v2beta1` APIGroupDiscoveryList with the SHA-512 of its JSON form. */
export interface AggregatedDiscovery {
  readonly document: Readonly<Record<string, unknown>>;
  /** Upper-case hex, unquoted: the `ETag` is this in double quotes. */
  readonly hash: string;
}

function responseKind(e: ApiResourceEntry): ResponseKind {
  return { group: e.group ?? '', version: e.version ?? '', kind: e.kind };
}

/**
 * Regroups one group version's legacy entries as upstream does (`ConvertGroupVersionIntoToDiscovery`):
 * resources in their order, each `plural/sub` entry becoming a sub-resource of its parent.
 */
function resourcesOf(entries: readonly ApiResourceEntry[]): ResourceDiscovery[] {
  const byName = new Map<string, ResourceDiscovery>();
  for (const e of entries.filter((x) => !x.name.includes('/'))) {
    byName.set(e.name, {
      resource: e.name, responseKind: responseKind(e), scope: e.namespaced ? 'Namespaced' : 'Cluster', singularResource: e.singularName, verbs: e.verbs,
      ...(e.shortNames ? { shortNames: e.shortNames } : {}),
      ...(e.categories ? { categories: e.categories } : {}),
    });
  }
  for (const e of entries.filter((x) => x.name.includes('/'))) {
    const slash = e.name.indexOf('/');
    const parent = byName.get(e.name.slice(0, slash));
    assert.ok(parent, `sub-resource ${e.name} has a parent resource`);
    parent.subresources = [...(parent.subresources ?? []), { subresource: e.name.slice(slash + 1), responseKind: responseKind(e), verbs: e.verbs }];
  }
  return [...byName.values()];
}

function build(registry: ResourceRegistry, core: boolean): AggregatedDiscovery {
  const items = servedGroupVersions(registry)
    .filter(([group]) => (group === '') === core)
    .map(([group, versions]) => ({
      metadata: { name: group },
      versions: versions.map((version) => ({ version, resources: resourcesOf(groupVersionResources(registry, group, version)), freshness: 'Current' })),
    }));
  const document = { kind: 'APIGroupDiscoveryList', apiVersion: 'apidiscovery.k8s.io/v2beta1', metadata: {}, items };
  return { document, hash: createHash('sha512').update(JSON.stringify(document)).digest('hex').toUpperCase() };
}

const cache = new WeakMap<ResourceRegistry, { readonly generation: number; readonly core: AggregatedDiscovery; readonly groups: AggregatedDiscovery }>();

/**
 * The aggregated discovery document of `/api` (`core`: the core group alone, named '') or `/apis`
 * (every other group), groups in the legacy list's order and versions preferred first. Built
 * once per generation of the registry (custom resources come and go) from the same entries as
 * the legacy lists.
 */
export function aggregatedDiscovery(registry: ResourceRegistry, core: boolean): AggregatedDiscovery {
  let docs = cache.get(registry);
  if (docs === undefined || docs.generation !== registry.generation) {
    docs = { generation: registry.generation, core: build(registry, true), groups: build(registry, false) };
    cache.set(registry, docs);
  }
  return core ? docs.core : docs.groups;
}

const protobufCache = new WeakMap<ResourceRegistry, { generation: number; core?: Buffer; groups?: Buffer }>();

/** aggregatedDiscovery's document in Protobuf, encoded once per registry generation and document. */
export function aggregatedDiscoveryProtobuf(registry: ResourceRegistry, core: boolean): Buffer {
  let encoded = protobufCache.get(registry);
  if (encoded === undefined || encoded.generation !== registry.generation) protobufCache.set(registry, (encoded = { generation: registry.generation }));
  const key = core ? 'core' : 'groups';
  return (encoded[key] ??= encodeProtobuf({ ...aggregatedDiscovery(registry, core).document }));
}
