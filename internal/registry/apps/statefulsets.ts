import type { ResourceDeclaration } from '../schema/declaration.ts';
import { ageColumn, nameColumn, num } from '../schema/printers.ts';
import { defaultWorkload, specOf, validateSelectorImmutable, validateWorkload } from './workload.ts';
import { builtinFields } from '../schema/builtin-schemas.ts';
import { validateStatefulSetPolicies } from './update-strategy-validation.ts';

/** StatefulSets (apps/v1): pods with stable identities; updateStrategy defaults to RollingUpdate. */
export const statefulsets: ResourceDeclaration = {
  group: 'apps',
  version: 'v1',
  kind: 'StatefulSet',
  plural: 'statefulsets',
  singular: 'statefulset',
  shortNames: ['sts'],
  categories: ['all'],
  namespaced: true,
  nameRule: 'subdomain',
  description: 'StatefulSet represents a set of pods with consistent identities.',
  fields: builtinFields('io.k8s.api.apps.v1.StatefulSet'),
  subresources: { status: true, scale: { selectorFrom: 'spec.selector' } },
  tracksGeneration: true,
  printerColumns: [nameColumn, { name: 'Ready', type: 'string', cell: (o) => `${num(o, 'status.readyReplicas')}/${num(o, 'spec.replicas')}` }, ageColumn],
  strategy: {
    prepareForCreate(o) {
      o.status = { replicas: 0 };
    },
    applyDefaults(o) {
      defaultWorkload(o, true);
      const spec = specOf(o);
      spec.podManagementPolicy ||= 'OrderedReady';
      spec.revisionHistoryLimit ??= 10;
      const strategy = (spec.updateStrategy ??= {}) as Record<string, unknown>;
      strategy.type ||= 'RollingUpdate';
      if (strategy.type === 'RollingUpdate') strategy.rollingUpdate ??= { partition: 0 };
      // StatefulSetAutoDeletePVC is on by default in 1.28: both policies default to Retain.
      const retention = (spec.persistentVolumeClaimRetentionPolicy ??= {}) as Record<string, unknown>;
      retention.whenDeleted ||= 'Retain';
      retention.whenScaled ||= 'Retain';
    },
    validate: (o) => [...validateWorkload(o), ...validateStatefulSetPolicies(o)],
    validateUpdate: validateSelectorImmutable,
  },
};
