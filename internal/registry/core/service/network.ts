import { IpRange, parsePortRange, type IpFamily, type PortRange } from './ip-range.ts';

/** The default of --service-cluster-ip-range, as kubeadm sets it. */
export const defaultServiceClusterIpRange = '10.96.0.0/12';

/** The default of --service-node-port-range, as kube-apiserver's. */
export const defaultServiceNodePortRange = '30000-32767';

/** kube-apiserver refuses service ranges with more than 2^20 addresses (its bitmap's size). */
const rangeHostBitsMax = 20;

/** Where Services get their addresses and node ports: the cluster's configuration. */
export interface ServiceNetwork {
  /** One range per family; the first is the primary (the family of single-stack Services). */
  readonly ipRanges: readonly IpRange[];
  readonly nodePorts: PortRange;
}

/** The flags' text of a ServiceNetwork (absent: the defaults). */
export interface ServiceNetworkOptions {
  /** One CIDR, or two of different families separated by a comma (dual-stack). */
  readonly clusterIpRange?: string;
  /** `30000-32767`, `30000+2767` or one port. */
  readonly nodePortRange?: string;
}

/** Parses --service-cluster-ip-range: one CIDR, or two of different families; throws Error. */
export function parseServiceClusterIpRanges(text: string): IpRange[] {
  const parts = text.split(',').map((p) => p.trim());
  if (parts.length > 2) throw new Error(`"${text}": at most two CIDRs, one of each IP family`);
  const ranges = parts.map((p) => IpRange.parse(p));
  if (ranges.length === 2 && ranges[0]?.family === ranges[1]?.family) throw new Error(`"${text}": two CIDRs must be of different IP families (dual-stack)`);
  for (const r of ranges) {
    const bits = r.family === 'IPv4' ? 32 : 128;
    if (bits - r.prefix > rangeHostBitsMax) throw new Error(`"${r.cidr}" is too large; for ${bits}-bit addresses, the mask must be >= ${bits - rangeHostBitsMax}`);
  }
  return ranges;
}

/** The ServiceNetwork of the given flags; throws Error naming what is wrong. */
export function serviceNetwork(options: ServiceNetworkOptions = {}): ServiceNetwork {
  return {
    ipRanges: parseServiceClusterIpRanges(options.clusterIpRange ?? defaultServiceClusterIpRange),
    nodePorts: parsePortRange(options.nodePortRange ?? defaultServiceNodePortRange),
  };
}

/** The range of `family`, if the cluster has one. */
export function rangeOf(network: ServiceNetwork, family: string): IpRange | undefined {
  return network.ipRanges.find((r) => r.family === family);
}

/** The family of Services that ask for none (the first range's). */
export function primaryFamily(network: ServiceNetwork): IpFamily {
  const first = network.ipRanges[0];
  if (first === undefined) throw new Error('assert: a service network has at least one range');
  return first.family;
}
