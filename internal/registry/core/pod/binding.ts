// pods/binding and the legacy `bindings` collection, as kube-apiserver 1.28's BindingREST
// (pkg/registry/core/pod/storage/storage.go): the scheduler's way to put a pod on a node. The
// write bypasses the pod strategy (spec.nodeName is otherwise immutable), as upstream's
// GuaranteedUpdate does, and is a compare-and-swap retried on lost races.
import type { KObject } from '../../schema/declaration.ts';
import { badRequest, conflict, invalid, type GroupResource } from '../../errors/status-error.ts';
import { checkPreconditions } from '../../generic/delete.ts';
import { guaranteedUpdate } from '../../generic/guaranteed-update.ts';
import type { GenericStore } from '../../generic/store.ts';
import { successStatus, type SubresourceReply } from '../../generic/subresource-store.ts';
import { notSupported, required, toCauses, type FieldError } from '../../schema/field-errors.ts';
import { field, text } from '../../schema/printers.ts';
import { setPodCondition } from './pod-conditions.ts';

/** How conflicts of a binding name what was refused (upstream's api.Resource("pods/binding")). */
const bindingResource: GroupResource = { group: '', resource: 'pods/binding' };

/**
 * ValidatePodBinding. Upstream returns these as a plain aggregate error, which kube-apiserver
 * answers with a 500; bad input is a 4xx here, so they are the 422 Invalid any other kind's
 * field errors are, with upstream's field paths and messages.
 */
function validateBinding(binding: KObject): FieldError[] {
  const errors: FieldError[] = [];
  const kind = text(binding, 'target.kind');
  if (kind !== '' && kind !== 'Node') errors.push(notSupported('target.kind', kind, ['Node', '<empty>']));
  if (text(binding, 'target.name') === '') errors.push(required('target.name'));
  return errors;
}

function checkAssignable(pod: KObject): void {
  const name = pod.metadata.name ?? '';
  if (pod.metadata.deletionTimestamp !== undefined) throw conflict(bindingResource, name, `pod ${name} is being deleted, cannot be assigned to a host`);
  const nodeName = text(pod, 'spec.nodeName');
  if (nodeName !== '') throw conflict(bindingResource, name, `pod ${name} is already assigned to node "${nodeName}"`);
  const gates = field(pod, 'spec.schedulingGates');
  if (Array.isArray(gates) && gates.length > 0) throw conflict(bindingResource, name, `pod ${name} has non-empty .spec.schedulingGates`);
}

/**
 * Binds the pod `name` to the Binding's target node: sets spec.nodeName (once), copies the
 * Binding's annotations onto the pod, sets the PodScheduled condition True. The Binding's uid and
 * resourceVersion are preconditions on the pod. 201 with a Status Success; 404 when the pod does
 * not exist, 409 when it is bound already, terminating or gated, 422 for a bad target.
 */
export async function bindPod(pods: GenericStore, namespace: string | undefined, name: string, binding: KObject, dryRun: boolean): Promise<SubresourceReply> {
  if ((binding.metadata.name ?? '') !== name) throw badRequest('name in URL does not match name in Binding object');
  const errors = validateBinding(binding);
  if (errors.length > 0) throw invalid('Binding', '', name, toCauses(errors));
  if (name === '') throw badRequest('Name parameter required.');
  const uid = binding.metadata.uid ?? '';
  const resourceVersion = binding.metadata.resourceVersion ?? '';
  const preconditions = { ...(uid ? { uid } : {}), ...(resourceVersion ? { resourceVersion } : {}) };
  const node = text(binding, 'target.name');
  await guaranteedUpdate(
    pods,
    namespace,
    name,
    (pod) => {
      checkPreconditions(pods, pod, { preconditions });
      checkAssignable(pod);
      if (typeof pod.spec !== 'object' || pod.spec === null) pod.spec = {};
      (pod.spec as Record<string, unknown>).nodeName = node;
      pod.metadata.annotations = { ...pod.metadata.annotations, ...binding.metadata.annotations };
      setPodCondition(pod, { type: 'PodScheduled', status: 'True' });
      return pod;
    },
    { dryRun, retry: resourceVersion === '' },
  );
  return { code: 201, object: successStatus(201) };
}
