import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { ResourceRegistry, ServedResource } from '../registry/resource-registry.ts';
import type { FieldSchema } from '../registry/schema/field-schema.ts';
import { markerExtensions } from '../registry/schema/patch-schema.ts';
import { objectSchema } from '../registry/schema/schema-check.ts';
import { encodeOpenApiV2 } from './openapi-v2-protobuf.ts';

type Json = Record<string, unknown>;

/**
 * The OpenAPI schema of a structural schema node. A node met again inside itself (JSONSchemaProps
 * refers to itself) is described as any value there: a document is a tree.
 */
export function toOpenApiSchema(s: FieldSchema, within: Set<FieldSchema> = new Set()): Json {
  if (within.has(s)) return s.description ? { description: s.description } : {};
  const out: Json = markerExtensions(s);
  if (s.description) out.description = s.description;
  const inner = (child: FieldSchema): Json => {
    within.add(s);
    try {
      return toOpenApiSchema(child, within);
    } finally {
      within.delete(s);
    }
  };
  switch (s.type) {
    case 'any':
      return out;
    case 'int-or-string':
      return { ...out, type: 'string', format: 'int-or-string', 'x-kubernetes-int-or-string': true };
    case 'array':
      return { ...out, type: 'array', items: s.items ? inner(s.items) : {} };
    case 'object': {
      out.type = 'object';
      if (s.properties) out.properties = Object.fromEntries(Object.entries(s.properties).map(([k, v]) => [k, inner(v)]));
      if (s.additionalProperties) out.additionalProperties = inner(s.additionalProperties);
      if (s.required?.length) out.required = s.required;
      if (s.preserveUnknown) out['x-kubernetes-preserve-unknown-fields'] = true;
      return out;
    }
    default:
      return { ...out, type: s.type, ...(s.format ? { format: s.format } : {}), ...(s.enum ? { enum: s.enum } : {}) };
  }
}

/** The definition name of a kind: `io.k8s.api.<group>.<version>.<Kind>` for a built-in one. */
export function definitionName(r: ServedResource): string {
  // kube-apiextensions-apiserver names a custom kind by its group reversed: `com.example.stable.v1.CronTab`.
  if (r.decl.custom === true) return `${r.group.split('.').reverse().join('.')}.${r.version}.${r.decl.kind}`;
  const group = r.group === '' ? 'core' : r.group.split('.')[0];
  // The two groups served by kube-apiserver's own extension servers are named by their Go packages.
  if (group === 'apiextensions') return `io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.${r.version}.${r.decl.kind}`;
  if (group === 'apiregistration') return `io.k8s.kube-aggregator.pkg.apis.apiregistration.${r.version}.${r.decl.kind}`;
  return `io.k8s.api.${group}.${r.version}.${r.decl.kind}`;
}

function gvk(r: ServedResource): Json {
  return { group: r.group, version: r.version, kind: r.decl.kind };
}

function param(name: string, location: 'query' | 'path', description: string): Json {
  return { name, in: location, description, ...(location === 'path' ? { required: true } : {}), schema: { type: 'string' }, type: 'string' };
}

const writeParams = [param('dryRun', 'query', 'All: run every stage but the write.'), param('fieldManager', 'query', 'Name of the writer.'), param('fieldValidation', 'query', 'Ignore, Warn or Strict.'), param('pretty', 'query', 'Indent the output.')];

function operation(r: ServedResource, action: string, params: Json[]): Json {
  return { operationId: `${action}${r.decl.kind}`, parameters: params, responses: { '200': { description: 'OK' } }, 'x-kubernetes-action': action, 'x-kubernetes-group-version-kind': gvk(r) };
}

function declaredPaths(r: ServedResource): Record<string, Json> {
  const prefix = r.group === '' ? `/api/${r.version}` : `/apis/${r.group}/${r.version}`;
  const base = r.decl.namespaced ? `${prefix}/namespaces/{namespace}/${r.decl.plural}` : `${prefix}/${r.decl.plural}`;
  const ns = r.decl.namespaced ? [param('namespace', 'path', 'Object name and auth scope.')] : [];
  const name = [...ns, param('name', 'path', `Name of the ${r.decl.kind}.`)];
  return {
    [base]: { get: operation(r, 'list', ns), post: operation(r, 'post', [...ns, ...writeParams]), delete: operation(r, 'deletecollection', ns) },
    [`${base}/{name}`]: {
      get: operation(r, 'get', name),
      put: operation(r, 'put', [...name, ...writeParams]),
      patch: operation(r, 'patch', [...name, ...writeParams, param('force', 'query', 'Force apply.')]),
      delete: operation(r, 'delete', [...name, param('dryRun', 'query', 'All: run every stage but the write.')]),
    },
  };
}

function schemas(resources: readonly ServedResource[]): Record<string, Json> {
  const out: Record<string, Json> = {};
  for (const r of resources) {
    out[definitionName(r)] = { ...toOpenApiSchema(objectSchema(r.decl)), 'x-kubernetes-group-version-kind': [gvk(r)] };
    out[`${definitionName(r)}List`] = {
      type: 'object',
      description: `${r.decl.kind}List is a list of ${r.decl.kind} objects.`,
      properties: { apiVersion: { type: 'string' }, kind: { type: 'string' }, metadata: { type: 'object' }, items: { type: 'array', items: { $ref: `#/components/schemas/${definitionName(r)}` } } },
      required: ['items'],
      'x-kubernetes-group-version-kind': [{ ...gvk(r), kind: r.decl.listKind ?? `${r.decl.kind}List` }],
    };
  }
  return out;
}

/** The vendored official documents (third_party/kubernetes-api-v1.28/openapi), beside the build. */
const officialDirectory = new URL('../../third_party/kubernetes-api-v1.28/openapi/', import.meta.url);

function readOfficial(file: string): Json | undefined {
  try {
    return JSON.parse(readFileSync(new URL(file, officialDirectory), 'utf8')) as Json;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** The served resource a path of the official documents is about ('' for a group's own paths), or undefined. */
function resourceOfPath(path: string): { group: string; version: string; resource: string; subresource: string } | undefined {
  const m = /^\/(?:api\/(v1)|apis\/([^/]+)\/([^/]+))\/(.*)$/.exec(path);
  if (m === null) return undefined;
  const group = m[2] ?? '';
  const version = m[1] ?? m[3] ?? '';
  let rest = (m[4] ?? '').split('/').filter((p) => p !== '');
  if (rest[0] === 'watch') rest = rest.slice(1);
  if (rest[0] === 'namespaces' && rest[1] === '{namespace}' && rest.length >= 3) rest = rest.slice(2);
  const [resource = '', name, subresource = ''] = rest;
  return { group, version, resource, subresource: name === undefined ? '' : subresource };
}

/** Whether a path of the official document is one orch serves. */
function servedPath(registry: ResourceRegistry, path: string): boolean {
  const at = resourceOfPath(path);
  if (at === undefined) return false;
  if (at.resource === '') return registry.inGroupVersion(at.group, at.version).length > 0;
  const served = registry.find(at.group, at.version, at.resource);
  if (served === undefined) return false;
  const sub = served.decl.subresources;
  return at.subresource === '' || (at.subresource === 'status' && sub?.status === true) || (at.subresource === 'scale' && sub?.scale !== undefined) || (at.subresource === 'finalize' && sub?.finalize === true) || sub?.more?.[at.subresource] !== undefined;
}

/** Every definition name a value refers to (`$ref`), followed through `definitions`, with `roots`. */
function reachable(roots: Iterable<string>, values: Iterable<unknown>, definitions: Record<string, unknown>, prefix: string): Set<string> {
  const out = new Set<string>();
  const queue: unknown[] = [...values];
  const add = (name: string): void => {
    if (out.has(name) || definitions[name] === undefined) return;
    out.add(name);
    queue.push(definitions[name]);
  };
  for (const r of roots) add(r);
  while (queue.length > 0) {
    const value = queue.pop();
    if (Array.isArray(value)) queue.push(...value);
    else if (typeof value === 'object' && value !== null) {
      for (const [k, v] of Object.entries(value)) {
        if (k === '$ref' && typeof v === 'string' && v.startsWith(prefix)) add(v.slice(prefix.length));
        else queue.push(v);
      }
    }
  }
  return out;
}

/** The official document narrowed to what orch serves, plus orch's own resources that it lacks. */
function narrowed(doc: Json, registry: ResourceRegistry, served: readonly ServedResource[], kind: 'v2' | 'v3'): Json {
  const paths = Object.fromEntries(Object.entries((doc.paths ?? {}) as Json).filter(([path]) => servedPath(registry, path)));
  const definitionsKey = kind === 'v2' ? 'definitions' : 'components';
  const all = (kind === 'v2' ? doc.definitions : (doc.components as Json | undefined)?.schemas) as Record<string, unknown> | undefined ?? {};
  const prefix = kind === 'v2' ? '#/definitions/' : '#/components/schemas/';
  const kinds = served.filter((r) => all[definitionName(r)] !== undefined).flatMap((r) => [definitionName(r), `${definitionName(r)}List`]);
  const names = reachable(kinds, Object.values(paths), all, prefix);
  const definitions: Record<string, unknown> = Object.fromEntries([...names].sort().map((n) => [n, all[n]]));
  // orch's own additions: resources the official document does not describe.
  const own = served.filter((r) => all[definitionName(r)] === undefined);
  for (const [name, schema] of Object.entries(schemas(own))) definitions[name] = schema;
  Object.assign(paths, ...own.map(declaredPaths));
  const body = kind === 'v2' ? JSON.parse(JSON.stringify(definitions).replaceAll('#/components/schemas/', '#/definitions/')) as Json : definitions;
  const rest = Object.fromEntries(Object.entries(doc).filter(([k]) => k !== 'paths' && k !== definitionsKey));
  return kind === 'v2' ? { ...rest, paths, definitions: body } : { ...rest, paths, components: { ...(doc.components as Json | undefined), schemas: body } };
}

/** The v3 file of a group version (`apis/apps/v1` -> `v3/apis__apps__v1_openapi.json`). */
function v3File(key: string): string {
  return `v3/${key.replaceAll('/', '__')}_openapi.json`;
}

/**
 * The OpenAPI documents: Kubernetes' own v1.28 documents (vendored), narrowed to the group
 * versions, resources and sub-resources orch serves, with the resources they do not describe
 * derived from their declarations. Built on first use and kept.
 */
export class OpenApiDocuments {
  private v2Doc: Json | undefined;
  private v3IndexDoc: Json | undefined;
  private readonly v3 = new Map<string, Json>();
  private v2Encoded: Buffer | undefined;

  private generation: number;

  constructor(private readonly registry: ResourceRegistry) {
    this.generation = registry.generation;
  }

  /** Forgets the documents built for an older set of served resources (a CRD came or went). */
  private fresh(): void {
    if (this.generation === this.registry.generation) return;
    this.generation = this.registry.generation;
    this.v2Doc = undefined;
    this.v3IndexDoc = undefined;
    this.v3.clear();
    this.v2Encoded = undefined;
  }

  private v2(): Json {
    this.v2Doc ??= narrowed(readOfficial('swagger.json') ?? { swagger: '2.0', info: { title: 'Kubernetes', version: 'unversioned' } }, this.registry, this.registry.resources, 'v2');
    return this.v2Doc;
  }

  private groupVersionKeys(): Map<string, readonly ServedResource[]> {
    const keys = new Map<string, readonly ServedResource[]>();
    for (const [group, versions] of this.registry.groups()) {
      for (const version of versions) keys.set(group === '' ? `api/${version}` : `apis/${group}/${version}`, this.registry.inGroupVersion(group, version));
    }
    return keys;
  }

  private v3Doc(key: string): Json | undefined {
    const served = this.groupVersionKeys().get(key);
    if (served === undefined) return undefined;
    let doc = this.v3.get(key);
    if (doc === undefined) {
      doc = narrowed(readOfficial(v3File(key)) ?? { openapi: '3.0.0', info: { title: 'Kubernetes', version: 'unversioned' } }, this.registry, served, 'v3');
      this.v3.set(key, doc);
    }
    return doc;
  }

  private v3Index(): Json {
    if (this.v3IndexDoc === undefined) {
      const index: Record<string, Json> = {};
      for (const key of this.groupVersionKeys().keys()) {
        const hash = createHash('sha512').update(JSON.stringify(this.v3Doc(key))).digest('hex').slice(0, 64).toUpperCase();
        index[key] = { serverRelativeURL: `/openapi/v3/${key}?hash=${hash}` };
      }
      this.v3IndexDoc = { paths: index };
    }
    return this.v3IndexDoc;
  }

  /** The v2 document as gnostic protobuf (what kubectl asks for), encoded once. */
  v2Protobuf(): Buffer {
    this.fresh();
    this.v2Encoded ??= encodeOpenApiV2(this.v2());
    return this.v2Encoded;
  }

  /** The document at `path` (`/openapi/v2`, `/openapi/v3`, `/openapi/v3/apis/apps/v1`), or undefined. */
  find(path: string): Json | undefined {
    this.fresh();
    if (path === '/openapi/v2') return this.v2();
    if (path === '/openapi/v3' || path === '/openapi/v3/') return this.v3Index();
    return path.startsWith('/openapi/v3/') ? this.v3Doc(path.slice('/openapi/v3/'.length)) : undefined;
  }
}
