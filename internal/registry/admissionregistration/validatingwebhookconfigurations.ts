// ValidatingWebhookConfigurations (admissionregistration.<domain>/v1), as kube-apiserver 1.28
// serves them: v1 defaults, ValidateValidatingWebhookConfiguration, printValidatingWebhookConfiguration.
import type { ResourceDeclaration } from '../schema/declaration.ts';
import { builtinFields, builtinRequired } from '../schema/builtin-schemas.ts';
import { defaultWebhookConfiguration } from './webhook-defaults.ts';
import { webhookConfigurationColumns } from './webhook-columns.ts';
import { validateWebhookConfiguration } from './webhook-validation.ts';

/** ValidatingWebhookConfigurations: webhooks that accept or reject objects without changing them. */
export const validatingwebhookconfigurations: ResourceDeclaration = {
  group: 'admissionregistration',
  groupQualified: true,
  version: 'v1',
  kind: 'ValidatingWebhookConfiguration',
  plural: 'validatingwebhookconfigurations',
  singular: 'validatingwebhookconfiguration',
  categories: ['api-extensions'],
  namespaced: false,
  nameRule: 'subdomain',
  description: 'ValidatingWebhookConfiguration describes the configuration of and admission webhook that accept or reject and object without changing it.',
  fields: builtinFields('io.k8s.api.admissionregistration.v1.ValidatingWebhookConfiguration'),
  required: builtinRequired('io.k8s.api.admissionregistration.v1.ValidatingWebhookConfiguration'),
  printerColumns: webhookConfigurationColumns('ValidatingWebhookConfiguration'),
  strategy: {
    allowCreateOnUpdate: false,
    applyDefaults: (o) => defaultWebhookConfiguration(o, false),
    validate: (o) => validateWebhookConfiguration(o, false),
  },
};
