import type { KObject, ResourceDeclaration } from '../schema/declaration.ts';
import { atomicList, bool, conditionList, mapList, open, setList, str } from '../schema/field-schema.ts';
import { ageColumn, field, nameColumn, text } from '../schema/printers.ts';

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
  fields: {
    spec: open({ podCIDR: str(), podCIDRs: setList(str()), providerID: str(), unschedulable: bool(), taints: atomicList(open()) }),
    status: open({ conditions: conditionList(), addresses: mapList(open({ type: str(), address: str() }), ['type']), nodeInfo: open() }),
  },
  subresources: { status: true },
  printerColumns: [
    nameColumn,
    { name: 'Status', type: 'string', cell: nodeStatusCell },
    { name: 'Roles', type: 'string', cell: rolesCell },
    ageColumn,
    { name: 'Version', type: 'string', cell: (o) => text(o, 'status.nodeInfo.kubeletVersion') },
  ],
  strategy: {
    prepareForCreate(o) {
      o.status ??= {};
    },
  },
};
