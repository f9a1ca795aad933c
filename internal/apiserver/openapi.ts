import { createHash } from 'node:crypto';
import type { ResourceRegistry, ServedResource } from '../registry/resource-registry.ts';
import type { FieldSchema } from '../registry/schema/field-schema.ts';
import { markerExtensions } from '../registry/schema/patch-schema.ts';
import { objectSchema } from '../registry/schema/schema-check.ts';
import { encodeOpenApiV2 } from './openapi-v2-protobuf.ts';

type Json = Record<string, unknown>;

/** The OpenAPI schema of a structural schema node. */
export function toOpenApiSchema(s: FieldSchema): Json {
  const out: Json = markerExtensions(s);
  if (s.description) out.description = s.description;
  switch (s.type) {
    case 'any':
      return out;
    case 'int-or-string':
      return { ...out, type: 'string', format: 'int-or-string', 'x-kubernetes-int-or-string': true };
    case 'array':
      return { ...out, type: 'array', items: s.items ? toOpenApiSchema(s.items) : {} };
    case 'object': {
      out.type = 'object';
      if (s.properties) out.properties = Object.fromEntries(Object.entries(s.properties).map(([k, v]) => [k, toOpenApiSchema(v)]));
      if (s.additionalProperties) out.additionalProperties = toOpenApiSchema(s.additionalProperties);
      if (s.required?.length) out.required = s.required;
      if (s.preserveUnknown) out['x-kubernetes-preserve-unknown-fields'] = true;
      return out;
    }
    default:
      return { ...out, type: s.type, ...(s.format ? { format: s.format } : {}), ...(s.enum ? { enum: s.enum } : {}) };
  }
}

/** The definition name of a kind: `io.k8s.api.<group>.<version>.<Kind>`. */
export function definitionName(r: ServedResource): string {
  const group = r.group === '' ? 'core' : r.group.split('.')[0];
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

function paths(r: ServedResource): Record<string, Json> {
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
      'x-kubernetes-group-version-kind': [{ ...gvk(r), kind: `${r.decl.kind}List` }],
    };
  }
  return out;
}

/** The OpenAPI documents derived from the registry, built once. */
export class OpenApiDocuments {
  private readonly v2: Json;
  private readonly v3Index: Json;
  private readonly v3 = new Map<string, Json>();

  constructor(registry: ResourceRegistry) {
    const info = { title: 'Kubernetes', version: 'v1.28.0' };
    const v2Defs = JSON.parse(JSON.stringify(schemas(registry.resources)).replaceAll('#/components/schemas/', '#/definitions/')) as Json;
    this.v2 = { swagger: '2.0', info, paths: Object.assign({}, ...registry.resources.map(paths)), definitions: v2Defs };
    const index: Record<string, Json> = {};
    for (const [group, versions] of registry.groups()) {
      for (const version of versions) {
        const served = registry.inGroupVersion(group, version);
        const key = group === '' ? `api/${version}` : `apis/${group}/${version}`;
        const doc = { openapi: '3.0.0', info, paths: Object.assign({}, ...served.map(paths)), components: { schemas: schemas(served) } };
        this.v3.set(`/openapi/v3/${key}`, doc);
        const hash = createHash('sha512').update(JSON.stringify(doc)).digest('hex').slice(0, 64).toUpperCase();
        index[key] = { serverRelativeURL: `/openapi/v3/${key}?hash=${hash}` };
      }
    }
    this.v3Index = { paths: index };
  }

  private v2Encoded: Buffer | undefined;

  /** The v2 document as gnostic protobuf (what kubectl asks for), encoded once. */
  v2Protobuf(): Buffer {
    this.v2Encoded ??= encodeOpenApiV2(this.v2);
    return this.v2Encoded;
  }

  /** The document at `path` (`/openapi/v2`, `/openapi/v3`, `/openapi/v3/apis/apps/v1`), or undefined. */
  find(path: string): Json | undefined {
    if (path === '/openapi/v2') return this.v2;
    if (path === '/openapi/v3' || path === '/openapi/v3/') return this.v3Index;
    return this.v3.get(path);
  }
}
