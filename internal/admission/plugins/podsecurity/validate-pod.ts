// Pods (pod-security-admission's ValidatePod): the only resource whose writes are refused by the
// enforce mode; also the sub-resources that can change a pod's spec (ephemeralcontainers).
import type { AdmissionAttributes } from '../../attributes.ts';
import { badRequest, internalError } from '../../../registry/errors/status-error.ts';
import type { KObject } from '../../../registry/schema/declaration.ts';
import { policyFromLabels } from './api/namespace-labels.ts';
import { fullyPrivileged } from './api/policy.ts';
import { podView } from './checks/pod-view.ts';
import { allowedDecision, errorDecision, exemptDecision, privilegedDecision, type Decision } from './decision.ts';
import { evaluatePodPolicy } from './evaluate-pod.ts';
import { lookupNamespace, namespaceLabels } from './namespace-lookup.ts';
import { exemptNamespace, exemptUser, type PluginState } from './plugin-state.ts';
import { isSignificantPodUpdate } from './significant-pod-update.ts';

/**
 * Sub-resources that never carry a pod spec to check. Any other one is evaluated, so a new
 * sub-resource that can change the spec is checked rather than let through.
 */
const ignoredSubresources: ReadonlySet<string> = new Set(['exec', 'attach', 'binding', 'eviction', 'log', 'portforward', 'proxy', 'status']);

/** Whether the request carries a Pod (a pod sub-resource other than the ignored ones must). */
function isPod(attributes: AdmissionAttributes, object: KObject): boolean {
  return attributes.kind.kind === 'Pod' || object.kind === 'Pod';
}

/** Evaluates a pod create or update against its namespace's policy. */
export async function validatePod(state: PluginState, attributes: AdmissionAttributes): Promise<Decision> {
  if (ignoredSubresources.has(attributes.subresource)) return allowedDecision;
  if (exemptNamespace(state, attributes.namespace)) return exemptDecision('namespace');
  if (exemptUser(state, attributes.userInfo.username)) return exemptDecision('user');

  const namespace = await lookupNamespace(state, attributes.namespace);
  if (namespace instanceof Error) {
    state.log(`PodSecurity: failed to fetch pod namespace ${attributes.namespace}`, namespace);
    return errorDecision(internalError(`failed to lookup namespace "${attributes.namespace}"`), namespace.message);
  }
  const { policy, errors } = policyFromLabels(namespaceLabels(namespace), state.configuration.defaults);
  if (errors.length === 0 && fullyPrivileged(policy)) return privilegedDecision;

  const object = attributes.object;
  if (object === undefined || !isPod(attributes, object)) return errorDecision(badRequest('failed to decode pod'));
  const pod = podView(object.metadata, object.spec);
  if (attributes.operation === 'UPDATE') {
    const old = attributes.oldObject;
    if (old === undefined) return errorDecision(badRequest('failed to decode old pod'));
    if (!isSignificantPodUpdate(pod, podView(old.metadata, old.spec))) return allowedDecision;
  }
  return evaluatePodPolicy(state, attributes, { policy, policyErrors: errors, pod, enforce: true });
}
