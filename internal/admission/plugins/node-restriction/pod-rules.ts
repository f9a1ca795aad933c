// What a node may do to pods: create mirror pods, delete pods bound to itself, update the status
// of pods bound to itself (without touching labels or resource claim statuses), and evict pods
// bound to itself. No other pod sub-resource.
import { jsonEqual } from './json-equal.ts';
import { admitMirrorPodCreate } from './mirror-pod-create.ts';
import { field, forbid, readOrRefuse, text } from './node-request.ts';
import type { NodeRequest } from './node-request.ts';

async function admitPodDelete(request: NodeRequest): Promise<void> {
  const { attributes } = request;
  const existing = await readOrRefuse(request, 'pods', attributes.namespace, attributes.name);
  if (text(field(existing, 'spec'), 'nodeName') !== request.nodeName) {
    throw forbid(request, `node ${JSON.stringify(request.nodeName)} can only delete pods with spec.nodeName set to itself`);
  }
}

/** Resource claim statuses equal by name and claim name, in order. */
function sameClaimStatuses(a: unknown, b: unknown): boolean {
  const left = Array.isArray(a) ? a : [];
  const right = Array.isArray(b) ? b : [];
  if (left.length !== right.length) return false;
  return left.every((entry, i) => text(entry, 'name') === text(right[i], 'name') && jsonEqual(field(entry, 'resourceClaimName'), field(right[i], 'resourceClaimName')));
}

async function admitPodStatus(request: NodeRequest): Promise<void> {
  const { attributes } = request;
  const node = JSON.stringify(request.nodeName);
  if (attributes.operation !== 'UPDATE') throw forbid(request, `unexpected operation ${JSON.stringify(attributes.operation)}`);
  const old = attributes.oldObject;
  const next = attributes.object;
  if (old === undefined) throw forbid(request, 'unexpected type <nil>');
  if (text(field(old, 'spec'), 'nodeName') !== request.nodeName) throw forbid(request, `node ${node} can only update pod status for pods with spec.nodeName set to itself`);
  if (next === undefined) throw forbid(request, 'unexpected type <nil>');
  if (!jsonEqual(old.metadata.labels ?? {}, next.metadata.labels ?? {})) throw forbid(request, `node ${node} cannot update labels through pod status`);
  if (!sameClaimStatuses(field(field(old, 'status'), 'resourceClaimStatuses'), field(field(next, 'status'), 'resourceClaimStatuses'))) {
    throw forbid(request, `node ${node} cannot update resource claim statues`);
  }
}

async function admitPodEviction(request: NodeRequest): Promise<void> {
  const { attributes } = request;
  if (attributes.operation !== 'CREATE') throw forbid(request, `unexpected operation ${attributes.operation}`);
  const eviction = attributes.object;
  if (eviction === undefined) throw forbid(request, 'unexpected type <nil>');
  // The request's pod name wins over the name inside the Eviction body.
  const podName = attributes.name !== '' ? attributes.name : typeof eviction.metadata.name === 'string' ? eviction.metadata.name : '';
  if (podName === '') throw forbid(request, 'could not determine pod from request data');
  const existing = await readOrRefuse(request, 'pods', attributes.namespace, podName);
  if (text(field(existing, 'spec'), 'nodeName') !== request.nodeName) throw forbid(request, `node ${request.nodeName} can only evict pods with spec.nodeName set to itself`);
}

/** Applies the pod rules to a request on `pods` or one of its sub-resources. */
export async function admitPodRequest(request: NodeRequest): Promise<void> {
  const { attributes } = request;
  switch (attributes.subresource) {
    case '':
      if (attributes.operation === 'CREATE') return admitMirrorPodCreate(request);
      if (attributes.operation === 'DELETE') return admitPodDelete(request);
      throw forbid(request, `unexpected operation ${JSON.stringify(attributes.operation)}, node ${JSON.stringify(request.nodeName)} can only create and delete mirror pods`);
    case 'status':
      return admitPodStatus(request);
    case 'eviction':
      return admitPodEviction(request);
    default:
      throw forbid(request, `unexpected pod subresource ${JSON.stringify(attributes.subresource)}, only 'status' and 'eviction' are allowed`);
  }
}
