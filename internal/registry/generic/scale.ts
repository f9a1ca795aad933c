import type { KObject } from '../schema/declaration.ts';
import { badRequest, invalid } from '../errors/status-error.ts';
import { field, selectorString } from '../schema/printers.ts';
import type { GenericStore, WriteOptions, WriteResult } from './store.ts';

/** The autoscaling/v1 Scale view of a workload. */
export function scaleOf(obj: KObject): KObject {
  const m = obj.metadata;
  const metadata = { name: m.name, namespace: m.namespace, uid: m.uid, resourceVersion: m.resourceVersion, creationTimestamp: m.creationTimestamp };
  const replicas = field(obj, 'spec.replicas');
  const statusReplicas = field(obj, 'status.replicas');
  return {
    kind: 'Scale',
    apiVersion: 'autoscaling/v1',
    metadata,
    spec: { replicas: typeof replicas === 'number' ? replicas : 0 },
    status: { replicas: typeof statusReplicas === 'number' ? statusReplicas : 0, selector: selectorString(field(obj, 'spec.selector')) },
  };
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
  const result: WriteResult = await store.patch(
    namespace,
    name,
    (current) => {
      const desired = change(scaleOf(current));
      const replicas = desiredReplicas(desired);
      (current.spec as Record<string, unknown>).replicas = replicas;
      const rv = desired.metadata?.resourceVersion;
      if (typeof rv === 'string' && rv !== '') current.metadata.resourceVersion = rv;
      return current;
    },
    opts,
  );
  return scaleOf(result.object);
}
