// The other objects a node touches: the status of persistent volume claims (only capacity,
// conditions and allocation may change), service account tokens (only bound to a pod running
// on it), its heartbeat Lease in kube-node-lease and its CSINode (only those named after it).
import { jsonEqual } from './json-equal.ts';
import { field, forbid, readOrRefuse, text } from './node-request.ts';
import type { NodeRequest } from './node-request.ts';

/** The namespace of node heartbeat leases. */
export const nodeLeaseNamespace = 'kube-node-lease';

/** A claim with the fields a node may change, and resourceVersion and managedFields, removed. */
function comparableClaim(claim: unknown): unknown {
  const copy = structuredClone(claim) as Record<string, Record<string, unknown> | undefined>;
  delete copy['metadata']?.['resourceVersion'];
  delete copy['metadata']?.['managedFields'];
  for (const name of ['capacity', 'conditions', 'allocatedResourceStatuses', 'allocatedResources']) delete copy['status']?.[name];
  return copy;
}

/** Lists the top-level fields that differ (kube prints a full diff here). */
function differingFields(a: unknown, b: unknown): string {
  const sections = ['metadata', 'spec', 'status'].filter((s) => !jsonEqual(field(a, s), field(b, s)));
  return sections.length > 0 ? sections.join(', ') : 'unknown';
}

/** pvcs/status: only status.capacity, status.conditions and the allocation fields may change. */
export function admitClaimStatus(request: NodeRequest): void {
  const { attributes } = request;
  if (attributes.subresource !== 'status') throw forbid(request, 'may only update PVC status');
  if (attributes.operation !== 'UPDATE') throw forbid(request, `unexpected operation ${JSON.stringify(attributes.operation)}`);
  if (attributes.oldObject === undefined || attributes.object === undefined) throw forbid(request, 'unexpected type <nil>');
  const [old, next] = [comparableClaim(attributes.oldObject), comparableClaim(attributes.object)];
  if (!jsonEqual(old, next)) {
    throw forbid(request, `node ${JSON.stringify(request.nodeName)} is not allowed to update fields other than status.quantity and status.conditions: ${differingFields(old, next)}`);
  }
}

/** serviceaccounts/token: the token must be bound to a pod (by name and uid) that runs on this node. */
export async function admitServiceAccount(request: NodeRequest): Promise<void> {
  const { attributes } = request;
  if (attributes.operation !== 'CREATE' || attributes.subresource !== 'token') return;
  const tokenRequest = attributes.object;
  if (tokenRequest === undefined) throw forbid(request, 'unexpected type <nil>');
  const ref = field(field(tokenRequest, 'spec'), 'boundObjectRef');
  if (ref === undefined || ref === null || text(ref, 'apiVersion') !== 'v1' || text(ref, 'kind') !== 'Pod' || text(ref, 'name') === '') {
    throw forbid(request, 'node requested token not bound to a pod');
  }
  if (text(ref, 'uid') === '') throw forbid(request, 'node requested token with a pod binding without a uid');
  const pod = await readOrRefuse(request, 'pods', attributes.namespace, text(ref, 'name'));
  if (text(ref, 'uid') !== pod.metadata.uid) {
    throw forbid(request, `the UID in the bound object reference (${text(ref, 'uid')}) does not match the UID in record. The object might have been deleted and then recreated`);
  }
  if (text(field(pod, 'spec'), 'nodeName') !== request.nodeName) throw forbid(request, 'node requested token bound to a pod scheduled on a different node');
}

/** The name a create gives (the object's; a create request names none) or the request's. */
function targetName(request: NodeRequest): string {
  const { attributes } = request;
  if (attributes.operation !== 'CREATE') return attributes.name;
  const name = attributes.object?.metadata.name;
  return typeof name === 'string' ? name : '';
}

/** leases: only in kube-node-lease, and only the one named after the node. */
export function admitLease(request: NodeRequest): void {
  if (request.attributes.namespace !== nodeLeaseNamespace) throw forbid(request, `can only access leases in the ${JSON.stringify(nodeLeaseNamespace)} system namespace`);
  if (targetName(request) !== request.nodeName) throw forbid(request, 'can only access node lease with the same name as the requesting node');
}

/** csinodes: only the one named after the node. */
export function admitCsiNode(request: NodeRequest): void {
  if (targetName(request) !== request.nodeName) throw forbid(request, 'can only access CSINode with the same name as the requesting node');
}
