import type { ResourceDeclaration } from '../schema/declaration.ts';
import { ageColumn, nameColumn, num } from '../schema/printers.ts';
import { defaultWorkload, specOf, validateSelectorImmutable, validateWorkload } from './workload.ts';
import { builtinFields } from '../schema/builtin-schemas.ts';
import { validateDeploymentStrategy } from './update-strategy-validation.ts';

/** Deployments (apps/v1): declarative updates of ReplicaSets, with the apps/v1 defaults. */
export const deployments: ResourceDeclaration = {
  group: 'apps',
  version: 'v1',
  kind: 'Deployment',
  plural: 'deployments',
  singular: 'deployment',
  shortNames: ['deploy'],
  categories: ['all'],
  namespaced: true,
  nameRule: 'subdomain',
  description: 'Deployment enables declarative updates for Pods and ReplicaSets.',
  fields: builtinFields('io.k8s.api.apps.v1.Deployment'),
  subresources: { status: true, scale: { selectorFrom: 'spec.selector' } },
  tracksGeneration: true,
  printerColumns: [
    nameColumn,
    { name: 'Ready', type: 'string', cell: (o) => `${num(o, 'status.readyReplicas')}/${num(o, 'spec.replicas')}` },
    { name: 'Up-to-date', type: 'integer', cell: (o) => num(o, 'status.updatedReplicas') },
    { name: 'Available', type: 'integer', cell: (o) => num(o, 'status.availableReplicas') },
    ageColumn,
  ],
  strategy: {
    prepareForCreate(o) {
      o.status = {};
    },
    applyDefaults(o) {
      defaultWorkload(o, true);
      const spec = specOf(o);
      spec.progressDeadlineSeconds ??= 600;
      spec.revisionHistoryLimit ??= 10;
      const strategy = (spec.strategy ??= {}) as Record<string, unknown>;
      // As kube's SetDefaults_Deployment: an empty type is RollingUpdate too.
      strategy.type ||= 'RollingUpdate';
      if (strategy.type === 'RollingUpdate') {
        const rolling = (strategy.rollingUpdate ??= {}) as Record<string, unknown>;
        rolling.maxSurge ??= '25%';
        rolling.maxUnavailable ??= '25%';
      }
    },
    validate: (o) => [...validateWorkload(o), ...validateDeploymentStrategy(o)],
    validateUpdate: validateSelectorImmutable,
  },
};
