import { hasStatus } from '../../errors/status-error.ts';
import type { KObject } from '../../schema/declaration.ts';
import type { GenericStore } from '../../generic/store.ts';
import { patchRetriesMax } from '../../generic/limits.ts';
import { canonicalIp } from './ip-range.ts';
import type { ServiceNetwork } from './network.ts';

/** The stores the `kubernetes` Service is written through. */
export interface KubernetesServiceStores {
  readonly services: GenericStore;
  readonly endpoints: GenericStore;
}

/** Where this replica serves the API: its advertise address and the port it listens on. */
export interface ApiEndpoint {
  readonly host: string;
  readonly port: number;
}

const namespace = 'default';
const name = 'kubernetes';
const fieldManager = 'kube-apiserver';

interface EndpointPort {
  name?: string;
  port?: number;
  protocol?: string;
}
interface Subset {
  addresses?: { ip?: string }[];
  ports?: EndpointPort[];
}

function desiredService(network: ServiceNetwork, apiPort: number): KObject {
  const primary = network.ipRanges[0];
  if (primary === undefined) throw new Error('assert: a service network has a range');
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name, namespace, labels: { component: 'apiserver', provider: 'kubernetes' } },
    spec: { type: 'ClusterIP', clusterIP: primary.addressAt(0), sessionAffinity: 'None', ports: [{ name: 'https', port: 443, protocol: 'TCP', targetPort: apiPort }] },
  };
}

/**
 * The `kubernetes` Service of `default` (kube-apiserver's master service reconciler): type
 * ClusterIP at the first address of the primary range, port 443 (`https`) to the API port.
 * Created when missing; an existing one whose 443 port or type differ is put back; its target
 * port, which differs between replicas listening on different ports, is left as the first set it.
 */
async function ensureService(store: GenericStore, network: ServiceNetwork, apiPort: number): Promise<void> {
  const desired = desiredService(network, apiPort);
  let current: KObject;
  try {
    current = await store.get(namespace, name);
  } catch (err) {
    if (!hasStatus(err, 404)) throw err;
    try {
      await store.create(namespace, desired, { fieldManager });
    } catch (createErr) {
      if (!hasStatus(createErr, 409)) throw createErr;
    }
    return;
  }
  const spec = (current.spec ?? {}) as { type?: string; ports?: EndpointPort[] };
  const port = spec.ports?.[0];
  if (spec.type === 'ClusterIP' && spec.ports?.length === 1 && port?.name === 'https' && port.port === 443 && port.protocol === 'TCP') return;
  const ports = (desired.spec as { ports: unknown[] }).ports;
  await store.update(namespace, name, { ...current, spec: { ...spec, type: 'ClusterIP', ports } }, { fieldManager });
}

/** `subsets` with `ip` listed under the subset of `port` (one subset per API port, addresses sorted), or undefined when it is listed already. */
export function withAddress(subsets: readonly Subset[], ip: string, port: number): Subset[] | undefined {
  const ports: EndpointPort[] = [{ name: 'https', port, protocol: 'TCP' }];
  const same = (s: Subset): boolean => s.ports?.length === 1 && s.ports[0]?.port === port && s.ports[0].name === 'https' && s.ports[0].protocol === 'TCP';
  const mine = subsets.find(same);
  if (mine?.addresses?.some((a) => a.ip === ip)) return undefined;
  const addresses = [...(mine?.addresses ?? []), { ip }].sort((a, b) => ((a.ip ?? '') < (b.ip ?? '') ? -1 : 1));
  return [...subsets.filter((s) => !same(s)), { addresses, ports }].sort((a, b) => (a.ports?.[0]?.port ?? 0) - (b.ports?.[0]?.port ?? 0));
}

/**
 * Lists this replica in the `kubernetes` Endpoints (read, add, conditional write; retried when
 * another replica wrote meanwhile). Replicas add themselves; none removes another, so an
 * address a replica no longer serves stays listed (kube-apiserver's lease reconciler would drop it).
 */
async function ensureEndpoints(store: GenericStore, ip: string, port: number): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    let current: KObject | undefined;
    try {
      current = await store.get(namespace, name);
    } catch (err) {
      if (!hasStatus(err, 404)) throw err;
    }
    const subsets = withAddress(Array.isArray(current?.subsets) ? (current.subsets as Subset[]) : [], ip, port);
    if (subsets === undefined) return;
    try {
      if (current === undefined) await store.create(namespace, { apiVersion: 'v1', kind: 'Endpoints', metadata: { name, namespace, labels: { 'endpointslice.kubernetes.io/skip-mirror': 'true' } }, subsets }, { fieldManager });
      else await store.update(namespace, name, { ...current, subsets }, { fieldManager });
      return;
    } catch (err) {
      if (!hasStatus(err, 409) || attempt >= patchRetriesMax) throw err;
    }
  }
}

/**
 * Makes the `kubernetes` Service and lists `api` in its Endpoints, as every kube-apiserver does
 * at start. An advertise host that is not an IP address gets no Endpoints entry (Endpoints hold
 * addresses only) and `log` says so. Throws what the stores throw (the caller retries).
 */
export async function ensureKubernetesService(stores: KubernetesServiceStores, network: ServiceNetwork, api: ApiEndpoint, log: (message: string) => void): Promise<void> {
  await ensureService(stores.services, network, api.port);
  const ip = canonicalIp(api.host);
  if (ip === undefined) {
    log(`the advertise address ${api.host} is not an IP address: not listed in the kubernetes Endpoints`);
    return;
  }
  await ensureEndpoints(stores.endpoints, ip, api.port);
}
