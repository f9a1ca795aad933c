// The PodSecurity admission plugin of kube-apiserver 1.28 (k8s.io/pod-security-admission): checks
// pods and pod templates against the Pod Security Standards level their namespace's labels select,
// refusing pods (enforce), warning the client (warn) and annotating the audit event (audit).
import type { AdmissionAttributes } from '../../attributes.ts';
import type { AdmissionPlugin, PluginFactory } from '../../plugin.ts';
import { podSecurityPrefix } from './api/namespace-labels.ts';
import { parsePodSecurityConfiguration } from './configuration.ts';
import type { Decision } from './decision.ts';
import type { PluginState } from './plugin-state.ts';
import { hasPodTemplate } from './pod-templates.ts';
import { validateNamespace } from './validate-namespace.ts';
import { validatePodController } from './validate-pod-controller.ts';
import { validatePod } from './validate-pod.ts';

/** The plugin's name in the AdmissionConfiguration and the enabled-plugins list. */
export const podSecurityPluginName = 'PodSecurity';

/** Routes a request to the namespace, pod or workload validation; undefined for other resources. */
function decide(state: PluginState, attributes: AdmissionAttributes): Promise<Decision> | undefined {
  const { group, resource } = attributes.resource;
  if (group === '' && resource === 'namespaces') return validateNamespace(state, attributes);
  if (group === '' && resource === 'pods') return validatePod(state, attributes);
  if (hasPodTemplate(attributes.resource)) return validatePodController(state, attributes);
  return undefined;
}

/** Hands the decision to the request: warnings, prefixed audit annotations, then the refusal. */
function apply(attributes: AdmissionAttributes, decision: Decision): void {
  for (const warning of decision.warnings) attributes.addWarning(warning);
  for (const [key, value] of Object.entries(decision.auditAnnotations)) attributes.addAnnotation(podSecurityPrefix + key, value);
  if (decision.refusal !== undefined) throw decision.refusal;
}

/**
 * Makes the PodSecurity plugin (validating only, CREATE and UPDATE). `configuration` is a
 * PodSecurityConfiguration or undefined (everything privileged); a bad one throws an Error.
 */
export const podSecurityPlugin: PluginFactory = (deps, configuration): AdmissionPlugin => {
  const state: PluginState = { configuration: parsePodSecurityConfiguration(configuration), objects: deps.objects, clock: deps.clock, log: deps.log };
  return {
    name: podSecurityPluginName,
    handles: (operation) => operation === 'CREATE' || operation === 'UPDATE',
    async validate(attributes) {
      const decision = await decide(state, attributes);
      if (decision !== undefined) apply(attributes, decision);
    },
  };
};
