import type { KObject, ResourceDeclaration } from '../schema/declaration.ts';
import { ageColumn, field, nameColumn, selectorString, text } from '../schema/printers.ts';
import { builtinFields } from '../schema/builtin-schemas.ts';
import { proxySubresource } from './node-agent.ts';
import { defaultService, dropTypeDependentFields, normalizeClusterIps, patchAllocatedValues, specOf } from './service/spec.ts';
import { validateService, validateServiceUpdate } from './service/validation.ts';

interface ServicePort {
  name?: string;
  protocol?: string;
  port?: number;
  targetPort?: number | string;
  nodePort?: number;
}

function ports(o: KObject): ServicePort[] {
  const p = field(o, 'spec.ports');
  return Array.isArray(p) ? (p as ServicePort[]) : [];
}

function portsCell(o: KObject): string {
  const list = ports(o).map((p) => (p.nodePort ? `${p.port}:${p.nodePort}/${p.protocol ?? 'TCP'}` : `${p.port}/${p.protocol ?? 'TCP'}`));
  return list.length === 0 ? '<none>' : list.join(',');
}

function externalIpCell(o: KObject): string {
  const ingress = field(o, 'status.loadBalancer.ingress');
  const ips = Array.isArray(ingress) ? (ingress as { ip?: string; hostname?: string }[]).map((i) => i.ip ?? i.hostname ?? '') : [];
  const external = field(o, 'spec.externalIPs');
  if (Array.isArray(external)) ips.push(...(external as string[]));
  if (ips.length > 0) return ips.join(',');
  if (text(o, 'spec.type') === 'ExternalName') return text(o, 'spec.externalName');
  return text(o, 'spec.type') === 'LoadBalancer' ? '<pending>' : '<none>';
}

/**
 * Services (core/v1): a stable address for a set of pods. The strategy defaults and validates;
 * cluster IPs and node ports are claimed by the Service store hooks (service/allocation.ts),
 * after validation and before the write.
 */
export const services: ResourceDeclaration = {
  group: '',
  version: 'v1',
  kind: 'Service',
  plural: 'services',
  singular: 'service',
  shortNames: ['svc'],
  categories: ['all'],
  namespaced: true,
  nameRule: 'label',
  description: 'Service is a named abstraction of software service.',
  fields: builtinFields('io.k8s.api.core.v1.Service'),
  subresources: { status: true, more: { proxy: proxySubresource('ServiceProxyOptions') } },
  printerColumns: [
    nameColumn,
    { name: 'Type', type: 'string', cell: (o) => text(o, 'spec.type') },
    { name: 'Cluster-IP', type: 'string', cell: (o) => text(o, 'spec.clusterIP', '<none>') },
    { name: 'External-IP', type: 'string', cell: externalIpCell },
    { name: 'Port(s)', type: 'string', cell: portsCell },
    ageColumn,
    { name: 'Selector', type: 'string', priority: 1, cell: (o) => selectorString({ matchLabels: field(o, 'spec.selector') }) || '<none>' },
  ],
  strategy: {
    prepareForCreate(o) {
      o.status = { loadBalancer: {} };
      defaultService(o);
      normalizeClusterIps(specOf(o), undefined);
    },
    prepareForUpdate(o, old) {
      // Defaults first: what an update left out is judged against the type it will have.
      defaultService(o);
      const oldSpec = specOf(structuredClone(old));
      patchAllocatedValues(specOf(o), oldSpec);
      normalizeClusterIps(specOf(o), oldSpec);
      dropTypeDependentFields(specOf(o), oldSpec);
      if (specOf(o).type !== 'LoadBalancer' && typeof o.status === 'object' && o.status !== null) (o.status as Record<string, unknown>).loadBalancer = {};
    },
    applyDefaults: defaultService,
    validate: validateService,
    validateUpdate: validateServiceUpdate,
  },
};
