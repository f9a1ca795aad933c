// Namespaces (pod-security-admission's ValidateNamespace): the policy labels must be valid when set
// or changed, and tightening the enforce level warns about existing pods that would be refused.
import type { AdmissionAttributes } from '../../attributes.ts';
import { badRequest, invalid } from '../../../registry/errors/status-error.ts';
import { toCauses } from '../../../registry/schema/field-errors.ts';
import type { KObject } from '../../../registry/schema/declaration.ts';
import { compareLevels } from './api/level.ts';
import { policyFromLabels, sameFieldErrors, type LabelPolicy } from './api/namespace-labels.ts';
import { sameLevelVersion } from './api/policy.ts';
import { allowedDecision, errorDecision, warningsDecision, type Decision } from './decision.ts';
import { evaluatePodsInNamespace } from './existing-pods-evaluation.ts';
import { exemptNamespaceWarning } from './exempt-namespace-warning.ts';
import { namespaceLabels } from './namespace-lookup.ts';
import { exemptNamespace, type PluginState } from './plugin-state.ts';

/** The 422 kube answers for bad policy labels: `Namespace "x" is invalid: metadata.labels[...]: ...`. */
function invalidLabels(attributes: AdmissionAttributes, namespace: KObject, resolved: LabelPolicy): Decision {
  const name = attributes.name !== '' ? attributes.name : (namespace.metadata.name ?? '');
  return { refusal: invalid(attributes.kind.kind, attributes.kind.group, name, toCauses(resolved.errors)), warnings: [], auditAnnotations: {} };
}

/** Allowed, with the exempt-namespace warning when the labels set a policy that will be ignored. */
function exemptNamespaceDecision(state: PluginState, name: string, resolved: LabelPolicy, labels: Readonly<Record<string, string>>): Decision {
  const warning = exemptNamespaceWarning(name, resolved.policy, state.configuration.defaults, labels);
  return warning === undefined ? allowedDecision : warningsDecision([warning]);
}

/** Validates a namespace create or update. */
export async function validateNamespace(state: PluginState, attributes: AdmissionAttributes): Promise<Decision> {
  if (attributes.subresource !== '') return allowedDecision;
  const namespace = attributes.object;
  if (namespace === undefined) return errorDecision(badRequest('failed to decode namespace'));
  const labels = namespaceLabels(namespace);
  const resolved = policyFromLabels(labels, state.configuration.defaults);
  // Exemptions are matched on the namespace's own name. kube matches the request's namespace, which
  // is that name on update but '' on create (POST /namespaces), so kube never warns on create.
  const name = namespace.metadata.name ?? attributes.name;

  if (attributes.operation === 'CREATE') {
    if (resolved.errors.length > 0) return invalidLabels(attributes, namespace, resolved);
    return exemptNamespace(state, name) ? exemptNamespaceDecision(state, name, resolved, labels) : allowedDecision;
  }
  const old = attributes.oldObject;
  if (old === undefined) return errorDecision(badRequest('failed to decode old namespace'));
  const previous = policyFromLabels(namespaceLabels(old), state.configuration.defaults);
  // Labels already bad in the same way stay accepted, so unrelated updates of the namespace work.
  if (resolved.errors.length > 0 && (previous.errors.length === 0 || !sameFieldErrors(resolved.errors, previous.errors))) {
    return invalidLabels(attributes, namespace, resolved);
  }
  const enforce = resolved.policy.enforce;
  const oldEnforce = previous.policy.enforce;
  // Existing pods are checked only when the enforce level got stricter or its version changed.
  if (sameLevelVersion(enforce, oldEnforce) || enforce.level === 'privileged') return allowedDecision;
  if (enforce.version === oldEnforce.version && compareLevels(enforce.level, oldEnforce.level) < 1) return allowedDecision;
  if (exemptNamespace(state, name)) return exemptNamespaceDecision(state, name, resolved, labels);
  return warningsDecision(await evaluatePodsInNamespace(state, name, enforce));
}
