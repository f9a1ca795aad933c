import type { KObject, ResourceDeclaration } from '../schema/declaration.ts';
import { atomicList, conditionList, obj, str } from '../schema/field-schema.ts';
import { ageColumn, nameColumn, text } from '../schema/printers.ts';

/** Namespaces (core/v1): cluster-scoped, label-rule names, status.phase Active from creation. */
export const namespaces: ResourceDeclaration = {
  group: '',
  version: 'v1',
  kind: 'Namespace',
  plural: 'namespaces',
  singular: 'namespace',
  shortNames: ['ns'],
  namespaced: false,
  nameRule: 'label',
  description: 'Namespace provides a scope for Names.',
  fields: {
    spec: obj({ finalizers: atomicList(str()) }),
    status: obj({ phase: str('Active or Terminating.'), conditions: conditionList(obj({ type: str(), status: str(), reason: str(), message: str(), lastTransitionTime: str() })) }),
  },
  subresources: { status: true },
  printerColumns: [nameColumn, { name: 'Status', type: 'string', description: 'The phase of the namespace.', cell: (o) => text(o, 'status.phase') }, ageColumn],
  strategy: {
    prepareForCreate(o: KObject) {
      o.status = { phase: 'Active' };
    },
    applyDefaults(o: KObject) {
      const labels = (o.metadata.labels ??= {});
      // Kubernetes labels every namespace with its own name so selectors can match it.
      labels['kubernetes.io/metadata.name'] = o.metadata.name ?? '';
    },
  },
};
