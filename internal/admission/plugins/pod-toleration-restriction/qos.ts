// Whether a pod is BestEffort (kube's GetPodQOS): a pod whose status already names its class is
// that class; otherwise it is BestEffort when no container or init container requests or limits
// any cpu or memory above zero.
import { parseQuantity } from '../../../registry/schema/quantity.ts';

type Json = Record<string, unknown>;

const computeResources = ['cpu', 'memory'];

function record(value: unknown): Json | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : undefined;
}

function positive(quantity: unknown): boolean {
  if (typeof quantity !== 'string' && typeof quantity !== 'number') return false;
  const parsed = parseQuantity(String(quantity).trim());
  return parsed.canonical !== undefined && parsed.canonical !== '0' && !parsed.canonical.startsWith('-');
}

function asksForCompute(container: unknown): boolean {
  const resources = record(record(container)?.['resources']);
  return ['requests', 'limits'].some((kind) => {
    const list = record(resources?.[kind]);
    return list !== undefined && computeResources.some((name) => positive(list[name]));
  });
}

/** True when the pod is of QoS class BestEffort. */
export function isBestEffort(pod: Json): boolean {
  const known = record(pod['status'])?.['qosClass'];
  if (typeof known === 'string' && known !== '') return known === 'BestEffort';
  const spec = record(pod['spec']) ?? {};
  const containers = ['containers', 'initContainers'].flatMap((list) => (Array.isArray(spec[list]) ? (spec[list] as unknown[]) : []));
  return !containers.some(asksForCompute);
}
