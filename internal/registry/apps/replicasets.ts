import type { ResourceDeclaration } from '../schema/declaration.ts';
import { ageColumn, nameColumn, num } from '../schema/printers.ts';
import { defaultWorkload, validateSelectorImmutable, validateWorkload } from './workload.ts';
import { builtinFields } from '../schema/builtin-schemas.ts';

/** ReplicaSets (apps/v1): keep a number of identical pods running. */
export const replicasets: ResourceDeclaration = {
  group: 'apps',
  version: 'v1',
  kind: 'ReplicaSet',
  plural: 'replicasets',
  singular: 'replicaset',
  shortNames: ['rs'],
  categories: ['all'],
  namespaced: true,
  nameRule: 'subdomain',
  description: 'ReplicaSet ensures that a specified number of pod replicas are running at any given time.',
  fields: builtinFields('io.k8s.api.apps.v1.ReplicaSet'),
  subresources: { status: true, scale: { selectorFrom: 'spec.selector' } },
  tracksGeneration: true,
  printerColumns: [
    nameColumn,
    { name: 'Desired', type: 'integer', cell: (o) => num(o, 'spec.replicas') },
    { name: 'Current', type: 'integer', cell: (o) => num(o, 'status.replicas') },
    { name: 'Ready', type: 'integer', cell: (o) => num(o, 'status.readyReplicas') },
    ageColumn,
  ],
  strategy: {
    prepareForCreate(o) {
      o.status = { replicas: 0 };
    },
    applyDefaults: (o) => defaultWorkload(o, true),
    validate: validateWorkload,
    validateUpdate: validateSelectorImmutable,
  },
};
