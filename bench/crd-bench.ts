// What a custom kind with CEL validation rules costs on the write path: creates of a custom object
// whose schema carries three `x-kubernetes-validations` rules (compiled once, when the definition
// is served) against ConfigMap creates of about the same size, in the same run, alternated A-B-B-A
// so that neither side gets the warmer half of the run.
import { createConfigMaps, createObjects, joinedHalves } from './create-phases.ts';
import type { LoadResult } from './load.ts';
import type { OrchClient } from './orch-client.ts';
import { ensureNamespace, pickClient, type OrchTarget } from './orch-target.ts';
import { formatNumber, makeRow, ratio, type BenchRow } from './stats.ts';

export interface CrdBenchOptions {
  readonly creates: number;
  readonly concurrency: number;
  readonly phaseMsMax: number;
}

export interface CrdBenchResult {
  readonly configMaps: LoadResult;
  readonly customObjects: LoadResult;
}

const namespace = 'bench-crd';
const crdName = 'benchwidgets.bench.orch.dev';
const objectsPath = `/apis/bench.orch.dev/v1/namespaces/${namespace}/benchwidgets`;

/** The definition: a namespaced kind with a bounded spec and three rules over it. */
function definition(): Record<string, unknown> {
  return {
    apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: crdName },
    spec: {
      group: 'bench.orch.dev', scope: 'Namespaced', names: { plural: 'benchwidgets', singular: 'benchwidget', kind: 'BenchWidget' },
      versions: [{
        name: 'v1', served: true, storage: true,
        schema: { openAPIV3Schema: { type: 'object', properties: { spec: {
          type: 'object',
          'x-kubernetes-validations': [
            { rule: 'self.replicas <= self.maxReplicas', message: 'replicas must not exceed maxReplicas' },
            { rule: 'self.name.startsWith("w-")', message: 'name must start with w-' },
            { rule: 'self.tags.all(t, t.size() <= 16)', message: 'tags are at most 16 characters' },
          ],
          properties: {
            replicas: { type: 'integer' }, maxReplicas: { type: 'integer' }, name: { type: 'string', maxLength: 64 }, data: { type: 'string', maxLength: 1024 },
            tags: { type: 'array', maxItems: 8, items: { type: 'string', maxLength: 32 } },
          },
        } } } },
      }],
    },
  };
}

/** A custom object of about a ConfigMap's size (256 bytes of data) that passes the three rules. */
function customObject(name: string): Record<string, unknown> {
  return { apiVersion: 'bench.orch.dev/v1', kind: 'BenchWidget', metadata: { name }, spec: { replicas: 2, maxReplicas: 5, name: `w-${name}`, data: 'x'.repeat(256), tags: ['a', 'b', 'c'] } };
}

/** Waits until every replica serves the kind (each watches the definitions on its own). */
async function awaitServed(clients: readonly OrchClient[], deadlineMs: number): Promise<void> {
  for (const [i, client] of clients.entries()) {
    for (;;) {
      try {
        await client.call('GET', objectsPath, undefined, [200]);
        break;
      } catch (err) {
        if (performance.now() > deadlineMs) throw new Error(`replica ${i} does not serve the custom kind: ${String(err)}`);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    }
  }
}

export async function runCrdBench(target: OrchTarget, options: CrdBenchOptions): Promise<CrdBenchResult> {
  const admin = pickClient(target, 0);
  try {
    await ensureNamespace(admin, namespace);
    await admin.call('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', definition(), [201, 409]);
    await awaitServed(target.clients, performance.now() + 60_000);
    const half = Math.ceil(options.creates / 2);
    await createConfigMaps(target.clients, namespace, 'warmup', Math.min(half, 300), options);
    await createObjects(target.clients, objectsPath, customObject, 'warmup', Math.min(half, 300), options);
    const plain1 = await createConfigMaps(target.clients, namespace, 'a', half, options);
    const custom1 = await createObjects(target.clients, objectsPath, customObject, 'a', half, options);
    const custom2 = await createObjects(target.clients, objectsPath, customObject, 'b', options.creates - half, options);
    const plain2 = await createConfigMaps(target.clients, namespace, 'b', options.creates - half, options);
    return { configMaps: joinedHalves(plain1, plain2), customObjects: joinedHalves(custom1, custom2) };
  } finally {
    await admin.call('DELETE', `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${crdName}`, undefined, [200, 202, 404]).catch(() => undefined);
  }
}

export function crdRows(result: CrdBenchResult, concurrency: number): BenchRow[] {
  return [
    makeRow({ section: 'api', name: `ConfigMap create c=${concurrency} (beside custom objects)`, unit: 'ops/s', orch: result.configMaps.opsPerSecond }),
    makeRow({ section: 'api', name: `custom object create c=${concurrency}, three CEL rules`, unit: 'ops/s', orch: result.customObjects.opsPerSecond }),
  ];
}

/** The ratio line: custom objects with three rules against ConfigMaps. */
export function crdNotes(result: CrdBenchResult): string[] {
  const r = ratio(result.customObjects.opsPerSecond, result.configMaps.opsPerSecond);
  const errors = result.configMaps.errors + result.customObjects.errors;
  return [
    `crd: custom object creates with three CEL rules run at ${formatNumber(r)}x ConfigMap creates`,
    ...(errors > 0 ? [`crd: ${errors} creates failed (${result.configMaps.firstError ?? result.customObjects.firstError ?? ''})`] : []),
  ];
}
