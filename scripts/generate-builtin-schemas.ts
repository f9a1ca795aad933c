// Derives the registry's structural schemas of the built-in kinds from Kubernetes' own OpenAPI v2
// document (third_party/kubernetes-api-v1.28/openapi/swagger.json), so that no schema is copied
// by hand: every definition becomes a FieldSchema node (type, format, required fields, merge
// markers, and the scalar defaults of the v3 documents), with references kept as `{ "$ref": "<definition>" }` for the loader
// (internal/registry/schema/builtin-schemas.ts) to resolve. Descriptions are left out: /openapi
// serves the official documents themselves, where `kubectl explain` reads them.
//
// Usage: node --import tsx scripts/generate-builtin-schemas.ts [--check]
// --check exits 1 when the committed output differs from what the document gives.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../', import.meta.url));
const source = `${root}third_party/kubernetes-api-v1.28/openapi/swagger.json`;
const target = `${root}internal/registry/schema/generated/builtin-schemas.json`;

type Json = Record<string, unknown>;

/** A generated node: a FieldSchema whose nested schemas may be references to definitions. */
interface GeneratedNode {
  type?: string;
  format?: string;
  properties?: Record<string, GeneratedNode>;
  additionalProperties?: GeneratedNode;
  items?: GeneratedNode;
  required?: string[];
  default?: unknown;
  preserveUnknown?: boolean;
  markers?: Record<string, unknown>;
  $ref?: string;
}

/** Definitions whose Go types decode any JSON (or their own wire form), whatever their schema says. */
const anyValue = new Set([
  'io.k8s.apimachinery.pkg.apis.meta.v1.FieldsV1',
  'io.k8s.apimachinery.pkg.runtime.RawExtension',
  'io.k8s.apimachinery.pkg.apis.meta.v1.Patch',
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSON',
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrArray',
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrBool',
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrStringArray',
]);
const quantity = 'io.k8s.apimachinery.pkg.api.resource.Quantity';
const markerNames = ['x-kubernetes-list-type', 'x-kubernetes-list-map-keys', 'x-kubernetes-map-type', 'x-kubernetes-patch-strategy', 'x-kubernetes-patch-merge-key'];

/**
 * The scalar defaults of each definition's properties, which only the v3 documents carry (the v2
 * document has almost none): `protocol: TCP` of a port is what server-side apply keys a port by
 * when an item omits it. Object defaults (`{}`, the zero value of a struct) say nothing useful.
 */
function scalarDefaults(v3Directory: string): Map<string, Map<string, unknown>> {
  const out = new Map<string, Map<string, unknown>>();
  for (const file of readdirSync(v3Directory).filter((f) => f.endsWith('.json')).sort()) {
    const doc = JSON.parse(readFileSync(`${v3Directory}/${file}`, 'utf8')) as { components?: { schemas?: Record<string, Json> } };
    for (const [name, schema] of Object.entries(doc.components?.schemas ?? {})) {
      for (const [property, node] of Object.entries((schema.properties ?? {}) as Record<string, Json>)) {
        const value = node.default;
        if (value === undefined || (typeof value === 'object' && value !== null)) continue;
        const defaults = out.get(name) ?? new Map<string, unknown>();
        defaults.set(property, value);
        out.set(name, defaults);
      }
    }
  }
  return out;
}

function convert(s: Json, defaults?: Map<string, unknown>): GeneratedNode {
  const out: GeneratedNode = {};
  const ref = s.$ref;
  if (typeof ref === 'string') {
    out.$ref = ref.replace('#/definitions/', '');
  } else if (s.format === 'int-or-string' || s['x-kubernetes-int-or-string'] === true) {
    out.type = 'int-or-string';
  } else if (s.type === undefined) {
    out.type = 'any';
  } else {
    out.type = String(s.type);
    if (typeof s.format === 'string') out.format = s.format;
  }
  if (s.type === 'object' && s.properties !== undefined) {
    out.properties = Object.fromEntries(Object.entries(s.properties as Record<string, Json>).map(([k, v]) => [k, defaults?.has(k) === true && v.default === undefined ? { ...convert(v), default: defaults.get(k) } : convert(v)]));
  }
  if (s.type === 'object' && typeof s.additionalProperties === 'object') out.additionalProperties = convert(s.additionalProperties as Json);
  if (s.type === 'array' && typeof s.items === 'object') out.items = convert(s.items as Json);
  if (Array.isArray(s.required) && s.required.length > 0) out.required = [...(s.required as string[])];
  if (s.default !== undefined) out.default = s.default;
  if (s['x-kubernetes-preserve-unknown-fields'] === true) out.preserveUnknown = true;
  const markers = Object.fromEntries(markerNames.filter((m) => s[m] !== undefined).map((m) => [m, s[m]]));
  if (Object.keys(markers).length > 0) out.markers = markers;
  return out;
}

/** Every definition of the document as a generated node, in name order. */
function buildBuiltinSchemas(definitions: Record<string, Json>, defaults: Map<string, Map<string, unknown>>): Record<string, GeneratedNode> {
  const out: Record<string, GeneratedNode> = {};
  for (const name of Object.keys(definitions).sort()) {
    const definition = definitions[name] as Json;
    if (anyValue.has(name)) out[name] = { type: 'any' };
    else if (name === quantity) out[name] = { type: 'string', format: 'quantity' };
    else out[name] = convert(definition, defaults.get(name));
  }
  return out;
}

const swagger = JSON.parse(readFileSync(source, 'utf8')) as { definitions: Record<string, Json> };
// One definition a line, so that a change of the document reads as a change of the definitions it touches.
const generated = buildBuiltinSchemas(swagger.definitions, scalarDefaults(`${root}third_party/kubernetes-api-v1.28/openapi/v3`));
const text = `{\n${Object.entries(generated).map(([name, node]) => `${JSON.stringify(name)}: ${JSON.stringify(node)}`).join(',\n')}\n}\n`;
if (process.argv.includes('--check')) {
  const current = readFileSync(target, 'utf8');
  if (current !== text) {
    console.error(`${target} is stale: run make generate`);
    process.exit(1);
  }
  console.log(`${target} is current`);
} else {
  writeFileSync(target, text);
  console.log(`wrote ${target}`);
}
