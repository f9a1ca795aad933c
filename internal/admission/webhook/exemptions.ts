// Requests no webhook sees (kube's IsExemptAdmissionConfigurationResource): writes of the webhook
// and policy configurations themselves, so a broken webhook can always be removed.
import type { AdmissionAttributes } from '../attributes.ts';

const exemptKinds = new Set(['ValidatingWebhookConfiguration', 'MutatingWebhookConfiguration', 'ValidatingAdmissionPolicy', 'ValidatingAdmissionPolicyBinding']);

/** Whether the request is for an admission configuration kind of admissionregistration.<domain>. */
export function isExemptAdmissionConfiguration(attributes: AdmissionAttributes, apiDomain: string): boolean {
  return attributes.kind.group === `admissionregistration.${apiDomain}` && exemptKinds.has(attributes.kind.kind);
}
