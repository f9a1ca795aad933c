// What the vendored OpenAPI document says of a message's JSON form: its property names (to map
// the few proto field names that differ, e.g. `uID`, `aPIGroup`, `xKubernetesListType`, and to
// see inlined structs), its required fields (which Go writes in JSON even when zero), and whether
// it is a kind kube-apiserver serves (`x-kubernetes-group-version-kind`).
import { readFileSync } from 'node:fs';

/** The JSON properties and required fields of one definition. */
export interface JsonShape {
  readonly properties: ReadonlySet<string>;
  readonly required: ReadonlySet<string>;
  /** Whether the definition is a kind of its own (kube lists its group/version/kind), not a part of one. */
  readonly servedKind: boolean;
}

interface Definition {
  readonly properties?: Record<string, unknown>;
  readonly required?: readonly string[];
  readonly 'x-kubernetes-group-version-kind'?: readonly unknown[];
}

const swaggerUrl = new URL('../../../third_party/kubernetes-api-v1.28/openapi/swagger.json', import.meta.url);
let shapes: Map<string, JsonShape> | undefined;

function loadShapes(): Map<string, JsonShape> {
  const definitions = (JSON.parse(readFileSync(swaggerUrl, 'utf8')) as { definitions: Record<string, Definition> }).definitions;
  return new Map(Object.entries(definitions).map(([name, d]) => [name, {
    properties: new Set(Object.keys(d.properties ?? {})),
    required: new Set(d.required ?? []),
    servedKind: (d['x-kubernetes-group-version-kind']?.length ?? 0) > 0,
  }]));
}

/** The OpenAPI definition name of a proto message: `k8s.io.api.core.v1.Pod` → `io.k8s.api.core.v1.Pod`. */
function openapiName(protoFullName: string): string {
  return protoFullName.replace(/^k8s\.io\./, 'io.k8s.').replace('kube_aggregator', 'kube-aggregator').replace('apiextensions_apiserver', 'apiextensions-apiserver');
}

/** The JSON shape of a proto message (full name, no leading dot), or undefined if the document has none. */
export function jsonShapeOf(protoFullName: string): JsonShape | undefined {
  shapes ??= loadShapes();
  return shapes.get(openapiName(protoFullName));
}

/** Letters and digits only, lower case: how a proto field name and its JSON name are matched. */
export function normalizedName(name: string): string {
  return name.replace(/[^A-Za-z0-9]/g, '').toLowerCase();
}

/**
 * Fields Go's JSON writes even when zero (no omitempty) in messages the document does not define:
 * metav1.GroupVersionKind, which aggregated discovery (apidiscovery.k8s.io) names responseKind by.
 */
const requiredOutsideDocument: ReadonlyMap<string, ReadonlySet<string>> = new Map([
  ['k8s.io.apimachinery.pkg.apis.meta.v1.GroupVersionKind', new Set(['group', 'version', 'kind'])],
]);

/** Whether Go's JSON writes the field (proto name) of a message the document does not define even when zero. */
export function isRequiredOutsideDocument(protoFullName: string, field: string): boolean {
  return requiredOutsideDocument.get(protoFullName)?.has(field) ?? false;
}
