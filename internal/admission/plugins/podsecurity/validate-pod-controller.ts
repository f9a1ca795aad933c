// Workloads with pod templates (pod-security-admission's ValidatePodController): the template is
// checked for the warn and audit modes only, and a failure to check never refuses the write.
import type { AdmissionAttributes } from '../../attributes.ts';
import { policyFromLabels } from './api/namespace-labels.ts';
import { allowedDecision, exemptDecision, type Decision } from './decision.ts';
import { evaluatePodPolicy } from './evaluate-pod.ts';
import { lookupNamespace, namespaceLabels } from './namespace-lookup.ts';
import { exemptNamespace, exemptUser, type PluginState } from './plugin-state.ts';
import { podTemplateOf } from './pod-templates.ts';

/** Warns about and audits a workload's pod template against its namespace's policy. */
export async function validatePodController(state: PluginState, attributes: AdmissionAttributes): Promise<Decision> {
  if (attributes.subresource !== '') return allowedDecision;
  if (exemptNamespace(state, attributes.namespace)) return exemptDecision('namespace');
  if (exemptUser(state, attributes.userInfo.username)) return exemptDecision('user');

  const namespace = await lookupNamespace(state, attributes.namespace);
  if (namespace instanceof Error) {
    state.log(`PodSecurity: failed to fetch namespace ${attributes.namespace}`, namespace);
    return { warnings: [], auditAnnotations: { error: `failed to lookup namespace "${attributes.namespace}": ${namespace.message}` } };
  }
  const { policy, errors } = policyFromLabels(namespaceLabels(namespace), state.configuration.defaults);
  if (errors.length === 0 && policy.warn.level === 'privileged' && policy.audit.level === 'privileged') return allowedDecision;

  const object = attributes.object;
  if (object === undefined) return { warnings: [], auditAnnotations: { error: 'failed to decode object' } };
  const pod = podTemplateOf(attributes.resource, object);
  if (pod === undefined) return allowedDecision;
  return evaluatePodPolicy(state, attributes, { policy, policyErrors: errors, pod, enforce: false });
}
