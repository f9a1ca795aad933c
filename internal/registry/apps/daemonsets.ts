import type { ResourceDeclaration } from '../schema/declaration.ts';
import { ageColumn, field, nameColumn, num, selectorString } from '../schema/printers.ts';
import { defaultWorkload, specOf, validateSelectorImmutable, validateWorkload } from './workload.ts';
import { builtinFields } from '../schema/builtin-schemas.ts';
import { validateDaemonSetUpdateStrategy } from './update-strategy-validation.ts';

/** DaemonSets (apps/v1): one pod per node; updateStrategy defaults to RollingUpdate. */
export const daemonsets: ResourceDeclaration = {
  group: 'apps',
  version: 'v1',
  kind: 'DaemonSet',
  plural: 'daemonsets',
  singular: 'daemonset',
  shortNames: ['ds'],
  categories: ['all'],
  namespaced: true,
  nameRule: 'subdomain',
  description: 'DaemonSet represents the configuration of a daemon set.',
  fields: builtinFields('io.k8s.api.apps.v1.DaemonSet'),
  subresources: { status: true },
  tracksGeneration: true,
  printerColumns: [
    nameColumn,
    { name: 'Desired', type: 'integer', cell: (o) => num(o, 'status.desiredNumberScheduled') },
    { name: 'Current', type: 'integer', cell: (o) => num(o, 'status.currentNumberScheduled') },
    { name: 'Ready', type: 'integer', cell: (o) => num(o, 'status.numberReady') },
    { name: 'Up-to-date', type: 'integer', cell: (o) => num(o, 'status.updatedNumberScheduled') },
    { name: 'Available', type: 'integer', cell: (o) => num(o, 'status.numberAvailable') },
    { name: 'Node Selector', type: 'string', cell: (o) => selectorString({ matchLabels: field(o, 'spec.template.spec.nodeSelector') }) || '<none>' },
    ageColumn,
  ],
  strategy: {
    prepareForCreate(o) {
      o.status = { currentNumberScheduled: 0, desiredNumberScheduled: 0, numberMisscheduled: 0, numberReady: 0 };
    },
    applyDefaults(o) {
      defaultWorkload(o, false);
      const spec = specOf(o);
      spec.revisionHistoryLimit ??= 10;
      const strategy = (spec.updateStrategy ??= {}) as Record<string, unknown>;
      strategy.type ||= 'RollingUpdate';
      if (strategy.type === 'RollingUpdate') {
        const rolling = (strategy.rollingUpdate ??= {}) as Record<string, unknown>;
        rolling.maxUnavailable ??= 1;
        rolling.maxSurge ??= 0;
      }
    },
    validate: (o) => [...validateWorkload(o), ...validateDaemonSetUpdateStrategy(o)],
    validateUpdate: validateSelectorImmutable,
  },
};
