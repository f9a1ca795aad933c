import type { KObject, ResourceDeclaration } from '../schema/declaration.ts';
import { ageColumn, field, nameColumn, text } from '../schema/printers.ts';
import { boolLabel, objectMetaFieldLabels } from '../schema/field-labels.ts';
import { builtinFields } from '../schema/builtin-schemas.ts';
import { validateNodePodCidrs } from './node-validation.ts';
import { validateNodeTaintEffects } from './node-taints.ts';
import { proxySubresource } from './node-agent.ts';

function nodeStatusCell(o: KObject): string {
  const conditions = field(o, 'status.conditions');
  const ready = Array.isArray(conditions) ? (conditions as { type?: string; status?: string }[]).find((c) => c.type === 'Ready') : undefined;
  let status = ready === undefined ? 'Unknown' : ready.status === 'True' ? 'Ready' : 'NotReady';
  if (field(o, 'spec.unschedulable') === true) status += ',SchedulingDisabled';
  return status;
}

function rolesCell(o: KObject): string {
  const prefix = 'node-role.kubernetes.io/';
  const roles = Object.keys(o.metadata.labels ?? {}).filter((k) => k.startsWith(prefix)).map((k) => k.slice(prefix.length));
  return roles.length === 0 ? '<none>' : roles.join(',');
}

/** Nodes (core/v1): cluster-scoped workers; status written through `nodes/status`. */
export const nodes: ResourceDeclaration = {
  group: '',
  version: 'v1',
  kind: 'Node',
  plural: 'nodes',
  singular: 'node',
  shortNames: ['no'],
  namespaced: false,
  nameRule: 'subdomain',
  description: 'Node is a worker node.',
  fields: builtinFields('io.k8s.api.core.v1.Node'),
  subresources: { status: true, more: { proxy: proxySubresource('NodeProxyOptions') } },
  printerColumns: [
    nameColumn,
    { name: 'Status', type: 'string', cell: nodeStatusCell },
    { name: 'Roles', type: 'string', cell: rolesCell },
    ageColumn,
    { name: 'Version', type: 'string', cell: (o) => text(o, 'status.nodeInfo.kubeletVersion') },
  ],
  // kube-apiserver 1.28: the Node conversion of pkg/apis/core/v1/conversion.go (no metadata.namespace)
  // and NodeToSelectableFields of pkg/registry/core/node/strategy.go.
  fieldSelectors: { 'metadata.name': objectMetaFieldLabels['metadata.name'], 'spec.unschedulable': boolLabel('spec.unschedulable') },
  strategy: {
    prepareForCreate(o) {
      o.status ??= {};
    },
    validate: (o) => [...validateNodeTaintEffects(o), ...validateNodePodCidrs(o)],
  },
};
