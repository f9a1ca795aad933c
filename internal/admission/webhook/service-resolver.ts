// Where a webhook's `clientConfig.service` is reached (kube-apiserver's endpoint service resolver,
// proxy.ResolveEndpoint): the Service's port by number, then the first ready address of its
// Endpoints with that port's target. A ClusterIP is not used: nothing here routes virtual IPs.
import type { ObjectReader } from '../plugin.ts';

/** An address to dial. */
export interface DialAddress {
  readonly host: string;
  readonly port: number;
}

/** Resolves a service reference to an address; rejects with an Error in kube's words. */
export interface ServiceResolver {
  resolve(namespace: string, name: string, port: number): Promise<DialAddress>;
}

type Entry = Record<string, unknown>;

function entries(value: unknown): Entry[] {
  return Array.isArray(value) ? value.filter((v): v is Entry => typeof v === 'object' && v !== null) : [];
}

const routableTypes = ['ClusterIP', 'NodePort', 'LoadBalancer'];

/** The Endpoints-based resolver reading through the plugins' object reader. */
export class EndpointServiceResolver implements ServiceResolver {
  constructor(private readonly objects: ObjectReader) {}

  async resolve(namespace: string, name: string, port: number): Promise<DialAddress> {
    const service = await this.objects.get({ group: '', resource: 'services' }, namespace, name);
    if (service === undefined) throw new Error(`service ${JSON.stringify(name)} not found`);
    const spec = (service.spec ?? {}) as Entry;
    const type = typeof spec.type === 'string' ? spec.type : 'ClusterIP';
    if (!routableTypes.includes(type)) throw new Error(`unsupported service type ${JSON.stringify(type)}`);
    const servicePort = entries(spec.ports).find((p) => p.port === port);
    if (servicePort === undefined) throw new Error(`no service port ${port} found for service ${JSON.stringify(name)}`);
    const portName = typeof servicePort.name === 'string' ? servicePort.name : '';
    const endpoints = await this.objects.get({ group: '', resource: 'endpoints' }, namespace, name);
    for (const subset of entries(endpoints?.subsets)) {
      const addresses = entries(subset.addresses);
      const endpointPort = entries(subset.ports).find((p) => (typeof p.name === 'string' ? p.name : '') === portName);
      const ip = addresses[0]?.ip;
      if (endpointPort !== undefined && typeof ip === 'string' && typeof endpointPort.port === 'number') return { host: ip, port: endpointPort.port };
    }
    throw new Error(`no endpoints available for service ${JSON.stringify(name)}`);
  }
}
