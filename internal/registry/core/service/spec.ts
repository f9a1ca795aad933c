import type { KObject } from '../../schema/declaration.ts';

/** One entry of Service.spec.ports, as far as the registry reads it. */
export interface ServicePort {
  name?: string;
  protocol?: string;
  port?: number;
  targetPort?: number | string;
  nodePort?: number;
  appProtocol?: string;
}

/** The Service.spec fields the registry reads and writes (others pass through). */
export interface ServiceSpec {
  type?: string;
  clusterIP?: string;
  clusterIPs?: string[];
  ipFamilies?: string[];
  ipFamilyPolicy?: string;
  selector?: Record<string, string>;
  ports?: ServicePort[];
  externalName?: string;
  externalIPs?: string[];
  sessionAffinity?: string;
  sessionAffinityConfig?: { clientIP?: { timeoutSeconds?: number } };
  externalTrafficPolicy?: string;
  internalTrafficPolicy?: string;
  healthCheckNodePort?: number;
  allocateLoadBalancerNodePorts?: boolean;
  loadBalancerClass?: string;
  loadBalancerSourceRanges?: string[];
  [field: string]: unknown;
}

/** The value of spec.clusterIP that makes a Service headless. */
export const clusterIpNone = 'None';

/** The Service's spec, created empty when absent (callers may write to it). */
export function specOf(svc: KObject): ServiceSpec {
  if (typeof svc.spec !== 'object' || svc.spec === null || Array.isArray(svc.spec)) svc.spec = {};
  return svc.spec as ServiceSpec;
}

/** The Service's ports (empty when absent or malformed). */
export function portsOf(spec: ServiceSpec): ServicePort[] {
  return Array.isArray(spec.ports) ? spec.ports.filter((p) => typeof p === 'object' && p !== null) : [];
}

/** Its clusterIPs (empty when absent). */
export function clusterIpsOf(spec: ServiceSpec): string[] {
  return Array.isArray(spec.clusterIPs) ? spec.clusterIPs : [];
}

/** Its ipFamilies (empty when absent). */
export function ipFamiliesOf(spec: ServiceSpec): string[] {
  return Array.isArray(spec.ipFamilies) ? spec.ipFamilies : [];
}

/** Whether the type needs a cluster IP (or "None"): every type but ExternalName. */
export function needsClusterIp(spec: ServiceSpec): boolean {
  return spec.type !== 'ExternalName';
}

/** Whether the type exposes node ports: NodePort and LoadBalancer. */
export function needsNodePort(spec: ServiceSpec): boolean {
  return spec.type === 'NodePort' || spec.type === 'LoadBalancer';
}

/** Whether node ports are allocated for ports that ask for none (LoadBalancer may opt out). */
export function shouldAllocateNodePorts(spec: ServiceSpec): boolean {
  if (spec.type === 'NodePort') return true;
  return spec.type === 'LoadBalancer' && spec.allocateLoadBalancerNodePorts !== false;
}

/** Whether the Service needs a health check node port: LoadBalancer with externalTrafficPolicy Local. */
export function needsHealthCheck(spec: ServiceSpec): boolean {
  return spec.type === 'LoadBalancer' && spec.externalTrafficPolicy === 'Local';
}

/** Whether the Service is headless: clusterIPs is exactly ["None"]. */
export function isHeadless(spec: ServiceSpec): boolean {
  const ips = clusterIpsOf(spec);
  return ips.length === 1 && ips[0] === clusterIpNone;
}

/** Whether the Service has no selector (or an empty one). */
export function selectorless(spec: ServiceSpec): boolean {
  return typeof spec.selector !== 'object' || spec.selector === null || Object.keys(spec.selector).length === 0;
}

/** The node ports the Service's ports hold (not the health check port), in port order. */
export function nodePortsOf(spec: ServiceSpec): number[] {
  return portsOf(spec).map((p) => p.nodePort ?? 0).filter((n) => typeof n === 'number' && n !== 0);
}

function sameList(a: readonly unknown[] | undefined, b: readonly unknown[] | undefined): boolean {
  const x = a ?? [];
  const y = b ?? [];
  return x.length === y.length && x.every((v, i) => v === y[i]);
}

/** Whether clusterIP and clusterIPs are unchanged. */
export function sameClusterIps(old: ServiceSpec, next: ServiceSpec): boolean {
  return (old.clusterIP ?? '') === (next.clusterIP ?? '') && sameList(clusterIpsOf(old), clusterIpsOf(next));
}

/** Whether ipFamilies is unchanged. */
export function sameIpFamilies(old: ServiceSpec, next: ServiceSpec): boolean {
  return sameList(ipFamiliesOf(old), ipFamiliesOf(next));
}

/**
 * SetDefaults_Service (pkg/apis/core/v1/defaults.go, 1.28): sessionAffinity None (and its config
 * dropped) or ClientIP's 10800 s timeout, type ClusterIP, port protocol TCP and targetPort = port,
 * externalTrafficPolicy Cluster for NodePort and LoadBalancer, internalTrafficPolicy Cluster for
 * every type but ExternalName, allocateLoadBalancerNodePorts true for LoadBalancer.
 */
export function defaultService(svc: KObject): void {
  const spec = specOf(svc);
  if (!spec.sessionAffinity) spec.sessionAffinity = 'None';
  if (spec.sessionAffinity === 'None') delete spec.sessionAffinityConfig;
  if (spec.sessionAffinity === 'ClientIP' && spec.sessionAffinityConfig?.clientIP?.timeoutSeconds === undefined) {
    spec.sessionAffinityConfig = { clientIP: { timeoutSeconds: 10800 } };
  }
  if (!spec.type) spec.type = 'ClusterIP';
  for (const p of portsOf(spec)) {
    if (!p.protocol) p.protocol = 'TCP';
    if (p.targetPort === undefined || p.targetPort === 0 || p.targetPort === '') p.targetPort = p.port;
  }
  if (needsNodePort(spec) && !spec.externalTrafficPolicy) spec.externalTrafficPolicy = 'Cluster';
  if (spec.internalTrafficPolicy === undefined && ['NodePort', 'LoadBalancer', 'ClusterIP'].includes(spec.type)) spec.internalTrafficPolicy = 'Cluster';
  if (spec.type === 'LoadBalancer' && spec.allocateLoadBalancerNodePorts === undefined) spec.allocateLoadBalancerNodePorts = true;
}

/**
 * Keeps clusterIP and clusterIPs in step for clients that set only one (NormalizeClusterIPs,
 * pkg/registry/core/service/strategy.go): on create, clusterIP alone fills clusterIPs; on update,
 * clearing clusterIP or changing it while clusterIPs was left as stored follows clusterIP.
 */
export function normalizeClusterIps(next: ServiceSpec, old: ServiceSpec | undefined): void {
  const ips = clusterIpsOf(next);
  const ip = next.clusterIP ?? '';
  if (old === undefined) {
    if (ip !== '' && ips.length === 0) next.clusterIPs = [ip];
    return;
  }
  const oldIp = old.clusterIP ?? '';
  const pluralKept = clusterIpsOf(old).length > 0 && ips.length > 0 && sameList(clusterIpsOf(old), ips);
  if (oldIp !== '' && ip === '' && pluralKept) {
    delete next.clusterIPs;
    return;
  }
  if (oldIp !== '' && ip !== '' && oldIp !== ip && pluralKept) {
    next.clusterIPs = [ip];
    return;
  }
  if (ip !== '' && ips.length === 0) next.clusterIPs = [ip];
}

/**
 * Fills what an update left out but the stored Service was given (patchAllocatedValues,
 * pkg/registry/core/service/storage/storage.go): the cluster IPs, node ports by port name
 * (unless another port now uses that node port) and the health check port.
 */
export function patchAllocatedValues(next: ServiceSpec, old: ServiceSpec): void {
  if (needsClusterIp(old) && needsClusterIp(next)) {
    if (!next.clusterIP && old.clusterIP) next.clusterIP = old.clusterIP;
    if (clusterIpsOf(next).length === 0 && clusterIpsOf(old).length > 0) next.clusterIPs = [...clusterIpsOf(old)];
  }
  if (needsNodePort(old) && needsNodePort(next)) {
    const stillUsed = new Set(nodePortsOf(next).filter((n) => nodePortsOf(old).includes(n)));
    const byName = new Map(portsOf(old).map((p) => [p.name ?? '', p.nodePort ?? 0]));
    for (const p of portsOf(next)) {
      const previous = byName.get(p.name ?? '') ?? 0;
      if (!p.nodePort && previous !== 0 && !stillUsed.has(previous)) p.nodePort = previous;
    }
  }
  if (needsHealthCheck(old) && needsHealthCheck(next) && !next.healthCheckNodePort && old.healthCheckNodePort) next.healthCheckNodePort = old.healthCheckNodePort;
}

/**
 * Clears fields a type change made meaningless, when the update left them as stored
 * (dropTypeDependentFields, pkg/registry/core/service/strategy.go); what they held is released
 * after the write. A value the update changed stays, for validation to refuse.
 */
export function dropTypeDependentFields(next: ServiceSpec, old: ServiceSpec): void {
  if (needsClusterIp(old) && !needsClusterIp(next)) {
    if (sameClusterIps(old, next)) {
      delete next.clusterIP;
      delete next.clusterIPs;
    }
    if (sameIpFamilies(old, next)) delete next.ipFamilies;
    if ((old.ipFamilyPolicy ?? '') === (next.ipFamilyPolicy ?? '')) delete next.ipFamilyPolicy;
  }
  const oldPorts = new Set(nodePortsOf(old));
  if (needsNodePort(old) && !needsNodePort(next) && nodePortsOf(next).every((n) => oldPorts.has(n))) {
    for (const p of portsOf(next)) delete p.nodePort;
  }
  if (needsHealthCheck(old) && !needsHealthCheck(next) && (old.healthCheckNodePort ?? 0) === (next.healthCheckNodePort ?? 0)) delete next.healthCheckNodePort;
  if (old.type === 'LoadBalancer' && next.type !== 'LoadBalancer') {
    if (next.allocateLoadBalancerNodePorts !== undefined && next.allocateLoadBalancerNodePorts === old.allocateLoadBalancerNodePorts) delete next.allocateLoadBalancerNodePorts;
    if (next.loadBalancerClass === old.loadBalancerClass) delete next.loadBalancerClass;
  }
  if (needsNodePort(old) && !needsNodePort(next) && next.externalTrafficPolicy === old.externalTrafficPolicy) delete next.externalTrafficPolicy;
}
