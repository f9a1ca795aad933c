import type { KObject, ResourceDeclaration } from '../schema/declaration.ts';
import { int, mapList, intOrString, mapOf, obj, open, str } from '../schema/field-schema.ts';
import { immutable, notSupported, required, type FieldError } from '../schema/field-errors.ts';
import { ageColumn, field, nameColumn, selectorString, text } from '../schema/printers.ts';

const serviceTypes = ['ClusterIP', 'NodePort', 'LoadBalancer', 'ExternalName'];

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

function validateService(o: KObject): FieldError[] {
  const type = text(o, 'spec.type', 'ClusterIP');
  const errors: FieldError[] = [];
  if (!serviceTypes.includes(type)) errors.push(notSupported('spec.type', type, serviceTypes));
  if (type !== 'ExternalName' && ports(o).length === 0 && text(o, 'spec.clusterIP') !== 'None') errors.push(required('spec.ports'));
  ports(o).forEach((p, i) => {
    if (typeof p.port !== 'number') errors.push(required(`spec.ports[${i}].port`));
    if (ports(o).length > 1 && !p.name) errors.push(required(`spec.ports[${i}].name`));
  });
  return errors;
}

/** Services (core/v1): a stable address for a set of pods. No address allocation yet. */
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
  fields: {
    spec: open({
      type: str('ClusterIP, NodePort, LoadBalancer or ExternalName.'),
      selector: mapOf(str()),
      clusterIP: str(),
      ports: mapList(obj({ name: str(), protocol: str(undefined, { default: 'TCP' }), port: int(), targetPort: intOrString(), nodePort: int(), appProtocol: str() }), ['port', 'protocol']),
      sessionAffinity: str(),
      externalName: str(),
    }),
    status: open(),
  },
  subresources: { status: true },
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
    },
    applyDefaults(o) {
      const spec = (o.spec ??= {}) as Record<string, unknown>;
      spec.type ??= 'ClusterIP';
      spec.sessionAffinity ??= 'None';
      for (const p of ports(o)) {
        p.protocol ??= 'TCP';
        p.targetPort ??= p.port;
      }
    },
    validate: validateService,
    validateUpdate(o, old) {
      const before = text(old, 'spec.clusterIP');
      const after = text(o, 'spec.clusterIP');
      return before !== '' && after !== before ? [immutable('spec.clusterIP', after)] : [];
    },
  },
};
