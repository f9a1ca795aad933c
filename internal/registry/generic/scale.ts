import type { KObject, ScaleDeclaration } from '../schema/declaration.ts';
import { badRequest, invalid } from '../errors/status-error.ts';
import { field, selectorString } from '../schema/printers.ts';
import type { GenericStore, WriteOptions, WriteResult } from './store.ts';

/** Where a kind keeps what its Scale shows (built-in workloads: spec.replicas, status.replicas, spec.selector). */
const builtinScale: ScaleDeclaration = { selectorFrom: 'spec.selector' };

/** A dotted path of a custom kind's scale (`.spec.replicas`) as a field path (`spec.replicas`). */
function pathOf(jsonPath: string | undefined, fallback: string): string {
  return jsonPath === undefined ? fallback : jsonPath.replace(/^\./, '');
}

/** The autoscaling/v1 Scale view of a workload (or of a custom object, by its kind's scale paths). */
export function scaleOf(obj: KObject, scale: ScaleDeclaration = builtinScale): KObject {
  const m = obj.metadata;
  const metadata = { name: m.name, namespace: m.namespace, uid: m.uid, resourceVersion: m.resourceVersion, creationTimestamp: m.creationTimestamp };
  const replicas = field(obj, pathOf(scale.specReplicasPath, 'spec.replicas'));
  const statusReplicas = scale.selectorFrom === undefined && scale.statusReplicasPath === undefined ? undefined : field(obj, pathOf(scale.statusReplicasPath, 'status.replicas'));
  const selector = scale.selectorFrom !== undefined ? selectorString(field(obj, scale.selectorFrom)) : scale.labelSelectorPath === undefined ? undefined : field(obj, pathOf(scale.labelSelectorPath, ''));
  return {
    kind: 'Scale',
    apiVersion: 'autoscaling/v1',
    metadata,
    spec: { replicas: typeof replicas === 'number' ? replicas : 0 },
    status: { replicas: typeof statusReplicas === 'number' ? statusReplicas : 0, ...(typeof selector === 'string' && (selector !== '' || scale.selectorFrom !== undefined) ? { selector } : {}) },
  };
}

/** Sets a dotted field path, making the objects on the way. */
function setField(obj: KObject, path: string, value: unknown): void {
  const parts = path.split('.');
  let cur = obj as Record<string, unknown>;
  for (const part of parts.slice(0, -1)) {
    const next = cur[part];
    cur = (typeof next === 'object' && next !== null && !Array.isArray(next) ? next : (cur[part] = {})) as Record<string, unknown>;
  }
  cur[parts[parts.length - 1] ?? ''] = value;
}

/** Scale.spec.replicas is an int32: what it cannot hold is the decode error (400) kube-apiserver answers, never written to the workload. */
const replicasMax = 2 ** 31 - 1;

function desiredReplicas(scale: KObject): number {
  const replicas = field(scale, 'spec.replicas');
  if (typeof replicas === 'number' && Number.isInteger(replicas) && (replicas > replicasMax || replicas < -replicasMax - 1)) {
    throw badRequest(`Scale in version "v1" cannot be handled as a Scale: json: cannot unmarshal number ${String(replicas)} into Go struct field ScaleSpec.spec.replicas of type int32`);
  }
  if (typeof replicas !== 'number' || !Number.isInteger(replicas) || replicas < 0) {
    const message = `Invalid value: ${JSON.stringify(replicas ?? null)}: must be greater than or equal to 0`;
    throw invalid('Scale', 'autoscaling', scale.metadata?.name ?? '', [{ reason: 'FieldValueInvalid', message, field: 'spec.replicas' }]);
  }
  return replicas;
}

/**
 * Writes a Scale: `change` turns the current Scale into the desired one; only spec.replicas of the
 * workload changes. A resourceVersion in the desired Scale is a precondition.
 */
export async function writeScale(store: GenericStore, namespace: string | undefined, name: string, change: (current: KObject) => KObject, opts: WriteOptions): Promise<KObject> {
  const scale = store.decl.subresources?.scale ?? builtinScale;
  const result: WriteResult = await store.patch(
    namespace,
    name,
    (current) => {
      const desired = change(scaleOf(current, scale));
      setField(current, pathOf(scale.specReplicasPath, 'spec.replicas'), desiredReplicas(desired));
      const rv = desired.metadata?.resourceVersion;
      if (typeof rv === 'string' && rv !== '') current.metadata.resourceVersion = rv;
      return current;
    },
    opts,
  );
  return scaleOf(result.object, scale);
}
