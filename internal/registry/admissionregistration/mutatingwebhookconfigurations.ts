// MutatingWebhookConfigurations (admissionregistration.<domain>/v1), as kube-apiserver 1.28 serves
// them: v1 defaults (reinvocationPolicy too), ValidateMutatingWebhookConfiguration,
// printMutatingWebhookConfiguration.
import type { ResourceDeclaration } from '../schema/declaration.ts';
import { builtinFields, builtinRequired } from '../schema/builtin-schemas.ts';
import { defaultWebhookConfiguration } from './webhook-defaults.ts';
import { webhookConfigurationColumns } from './webhook-columns.ts';
import { validateWebhookConfiguration } from './webhook-validation.ts';

/** MutatingWebhookConfigurations: webhooks that accept or reject and may change objects. */
export const mutatingwebhookconfigurations: ResourceDeclaration = {
  group: 'admissionregistration',
  groupQualified: true,
  version: 'v1',
  kind: 'MutatingWebhookConfiguration',
  plural: 'mutatingwebhookconfigurations',
  singular: 'mutatingwebhookconfiguration',
  categories: ['api-extensions'],
  namespaced: false,
  nameRule: 'subdomain',
  description: 'MutatingWebhookConfiguration describes the configuration of and admission webhook that accept or reject and may change the object.',
  fields: builtinFields('io.k8s.api.admissionregistration.v1.MutatingWebhookConfiguration'),
  required: builtinRequired('io.k8s.api.admissionregistration.v1.MutatingWebhookConfiguration'),
  printerColumns: webhookConfigurationColumns('MutatingWebhookConfiguration'),
  strategy: {
    allowCreateOnUpdate: false,
    applyDefaults: (o) => defaultWebhookConfiguration(o, true),
    validate: (o) => validateWebhookConfiguration(o, true),
  },
};
