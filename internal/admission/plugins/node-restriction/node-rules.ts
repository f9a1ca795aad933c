// What a node may do to Node objects: only its own. It may not register or update with a
// configSource, may not change its taints (that would let it invite workloads kept away from
// it), may not set labels outside the kubelet's own, and may not delete its Node object.
import { jsonEqual } from './json-equal.ts';
import { forbiddenLabels, modifiedLabels } from './node-labels.ts';
import { field, forbid } from './node-request.ts';
import type { NodeRequest } from './node-request.ts';

function labelsOf(object: unknown): Record<string, string> {
  const labels = field(field(object, 'metadata'), 'labels');
  return typeof labels === 'object' && labels !== null ? (labels as Record<string, string>) : {};
}

function admitNodeCreate(request: NodeRequest): void {
  const node = request.attributes.object;
  if (node === undefined) throw forbid(request, 'unexpected type <nil>');
  const name = JSON.stringify(request.nodeName);
  const configSource = field(field(node, 'spec'), 'configSource');
  // (sic) kube's message says "pods" here.
  if (configSource !== undefined && configSource !== null) throw forbid(request, `node ${name} is not allowed to create pods with a non-nil configSource`);
  const refused = forbiddenLabels(modifiedLabels(labelsOf(node), {}));
  if (refused.length > 0) throw forbid(request, `node ${name} is not allowed to set the following labels: ${refused.join(', ')}`);
}

function admitNodeUpdate(request: NodeRequest): void {
  const { object: node, oldObject: old } = request.attributes;
  if (node === undefined || old === undefined) throw forbid(request, 'unexpected type <nil>');
  const name = JSON.stringify(request.nodeName);
  const configSource = field(field(node, 'spec'), 'configSource');
  // Only a new non-nil configSource counts: old kubelets drop the field on status updates.
  if (configSource !== undefined && configSource !== null && !jsonEqual(configSource, field(field(old, 'spec'), 'configSource'))) {
    throw forbid(request, `node ${name} is not allowed to update configSource to a new non-nil configSource`);
  }
  if (!jsonEqual(field(field(node, 'spec'), 'taints') ?? [], field(field(old, 'spec'), 'taints') ?? [])) throw forbid(request, `node ${name} is not allowed to modify taints`);
  const refused = forbiddenLabels(modifiedLabels(labelsOf(node), labelsOf(old)));
  // (sic) kube's message does not name the node here.
  if (refused.length > 0) throw forbid(request, `is not allowed to modify labels: ${refused.join(', ')}`);
}

/** Applies the Node rules to a request on `nodes` (main resource or status). */
export function admitNodeRequest(request: NodeRequest): void {
  const { attributes } = request;
  if (attributes.name !== request.nodeName) throw forbid(request, `node ${JSON.stringify(request.nodeName)} is not allowed to modify node ${JSON.stringify(attributes.name)}`);
  if (attributes.operation === 'CREATE') admitNodeCreate(request);
  else if (attributes.operation === 'UPDATE') admitNodeUpdate(request);
  else if (attributes.operation === 'DELETE') throw forbid(request, `node ${JSON.stringify(request.nodeName)} is not allowed to delete its own Node object`);
}
