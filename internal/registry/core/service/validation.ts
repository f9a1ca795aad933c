import type { KObject } from '../../schema/declaration.ts';
import { duplicate, forbidden, invalidShown, invalidValue, notSupported, required, type FieldError } from '../../schema/field-errors.ts';
import { validateLabels } from '../../schema/metadata-validation.ts';
import { dns1123Label, dns1123Subdomain, portName } from '../../schema/name-validation.ts';
import { validateExternalAddresses } from './external-addresses.ts';
import { goStrings } from './ip-families.ts';
import { parseIp } from './ip-range.ts';
import { clusterIpNone, clusterIpsOf, ipFamiliesOf, isHeadless, needsHealthCheck, portsOf, specOf, type ServicePort, type ServiceSpec } from './spec.ts';

// Sorted, as Go's sets.List prints the supported values.
const serviceTypes = ['ClusterIP', 'ExternalName', 'LoadBalancer', 'NodePort'];
const protocols = ['SCTP', 'TCP', 'UDP'];
const affinities = ['ClientIP', 'None'];
const families = ['IPv4', 'IPv6'];
const familyPolicies = ['PreferDualStack', 'RequireDualStack', 'SingleStack'];
const trafficPolicies = ['Cluster', 'Local'];
const portRangeMessage = 'must be between 1 and 65535, inclusive';
const ipMessage = 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)';

function validPort(n: unknown): boolean {
  return typeof n === 'number' && Number.isInteger(n) && n >= 1 && n <= 65535;
}

/** validateServicePort (pkg/apis/core/validation): name, port, protocol, targetPort of one port. */
function validatePort(p: ServicePort, path: string, requireName: boolean, names: Set<string>): FieldError[] {
  const errors: FieldError[] = [];
  if (requireName && !p.name) errors.push(required(`${path}.name`));
  else if (p.name) {
    for (const msg of dns1123Label(p.name)) errors.push(invalidValue(`${path}.name`, p.name, msg));
    if (names.has(p.name)) errors.push(duplicate(`${path}.name`, p.name));
    names.add(p.name);
  }
  if (!validPort(p.port)) errors.push(invalidShown(`${path}.port`, String(p.port ?? 0), portRangeMessage));
  if (!p.protocol) errors.push(required(`${path}.protocol`));
  else if (!protocols.includes(p.protocol)) errors.push(notSupported(`${path}.protocol`, p.protocol, protocols));
  if (typeof p.targetPort === 'string') for (const msg of portName(p.targetPort)) errors.push(invalidValue(`${path}.targetPort`, p.targetPort, msg));
  else if (!validPort(p.targetPort)) errors.push(invalidShown(`${path}.targetPort`, String(p.targetPort ?? 0), portRangeMessage));
  return errors;
}

/** The Go print of a ServicePort key of the duplicate-port check. */
function portKeyShown(p: ServicePort): string {
  return `core.ServicePort{Name:"", Protocol:${JSON.stringify(p.protocol ?? '')}, AppProtocol:(*string)(nil), Port:${p.port ?? 0}, TargetPort:intstr.IntOrString{Type:0, IntVal:0, StrVal:""}, NodePort:0}`;
}

function validatePorts(spec: ServiceSpec): FieldError[] {
  const errors: FieldError[] = [];
  const ports = portsOf(spec);
  const names = new Set<string>();
  const nodePorts = new Set<string>();
  const servicePorts = new Set<string>();
  for (const [i, p] of ports.entries()) {
    const path = `spec.ports[${i}]`;
    errors.push(...validatePort(p, path, ports.length > 1, names));
    if (spec.type === 'ClusterIP' && p.nodePort) errors.push(forbidden(`${path}.nodePort`, "may not be used when `type` is 'ClusterIP'"));
    if (p.nodePort) {
      const key = `${p.protocol}/${p.nodePort}`;
      if (nodePorts.has(key)) errors.push(duplicate(`${path}.nodePort`, p.nodePort));
      nodePorts.add(key);
    }
    const portKey = `${p.protocol}/${p.port}`;
    if (servicePorts.has(portKey)) errors.push({ type: 'FieldValueDuplicate', field: path, message: `Duplicate value: ${portKeyShown(p)}` });
    servicePorts.add(portKey);
  }
  return errors;
}

/** ValidateServiceClusterIPsRelatedFields: clusterIP and clusterIPs agree, are addresses (or "None"), one per family. */
export function validateClusterIpFields(spec: ServiceSpec): FieldError[] {
  if (spec.type === 'ExternalName') return [];
  const errors: FieldError[] = [];
  const ips = clusterIpsOf(spec);
  if (spec.clusterIP) {
    if (ips.length === 0) errors.push(required('spec.clusterIPs'));
    else if (ips[0] !== spec.clusterIP) errors.push(invalidShown('spec.clusterIPs', goStrings(ips), 'first value must match `clusterIP`'));
  } else if (ips.length !== 0) errors.push(invalidShown('spec.clusterIPs', goStrings(ips), 'must be empty when `clusterIP` is not specified'));
  const seen = new Set<string>();
  for (const [i, family] of ipFamiliesOf(spec).entries()) {
    if (!families.includes(family)) errors.push(notSupported(`spec.ipFamilies[${i}]`, family, families));
    if (seen.has(family)) errors.push(duplicate(`spec.ipFamilies[${i}]`, family));
    seen.add(family);
  }
  if (spec.ipFamilyPolicy !== undefined && !familyPolicies.includes(spec.ipFamilyPolicy)) errors.push(notSupported('spec.ipFamilyPolicy', spec.ipFamilyPolicy, familyPolicies));
  let badIps = false;
  for (const [i, ip] of ips.entries()) {
    if (i === 0 && ip === clusterIpNone) {
      if (ips.length > 1) {
        badIps = true;
        errors.push(invalidShown('spec.clusterIPs', goStrings(ips), "'None' must be the first and only value"));
      }
      continue;
    }
    if (parseIp(ip) === undefined) {
      badIps = true;
      errors.push(invalidValue(`spec.clusterIPs[${i}]`, ip, ipMessage));
    }
  }
  if (ips.length > 2) errors.push(invalidShown('spec.clusterIPs', goStrings(ips), 'may only hold up to 2 values'));
  if (badIps) return errors;
  if (ips.length > 1 && parseIp(ips[0] ?? '')?.family === parseIp(ips[1] ?? '')?.family) errors.push(invalidShown('spec.clusterIPs', goStrings(ips), 'may specify no more than one IP for each IP family'));
  if (!isHeadless(spec)) {
    for (const [i, ip] of ips.entries()) {
      const family = ipFamiliesOf(spec)[i];
      if (family !== undefined && families.includes(family) && parseIp(ip)?.family !== family) {
        errors.push(invalidValue(`spec.clusterIPs[${i}]`, ip, `expected an ${family} value as indicated by \`ipFamilies[${i}]\``));
      }
    }
  }
  return errors;
}

function validateTypeSpecific(spec: ServiceSpec): FieldError[] {
  const errors: FieldError[] = [];
  if (!spec.type) errors.push(required('spec.type'));
  else if (!serviceTypes.includes(spec.type)) errors.push(notSupported('spec.type', spec.type, serviceTypes));
  if (portsOf(spec).length === 0 && !isHeadless(spec) && spec.type !== 'ExternalName') errors.push(required('spec.ports'));
  if ((spec.type === 'LoadBalancer' || spec.type === 'NodePort') && isHeadless(spec)) {
    errors.push(invalidValue('spec.clusterIPs[0]', clusterIpNone, `may not be set to 'None' for ${spec.type} services`));
  }
  if (spec.type === 'ExternalName') {
    if (clusterIpsOf(spec).length > 0) errors.push(forbidden('spec.clusterIPs', 'may not be set for ExternalName services'));
    if (ipFamiliesOf(spec).length > 0) errors.push(forbidden('spec.ipFamilies', 'may not be set for ExternalName services'));
    if (spec.ipFamilyPolicy !== undefined) errors.push(forbidden('spec.ipFamilyPolicy', 'may not be set for ExternalName services'));
    const cname = (spec.externalName ?? '').replace(/\.$/, '');
    if (cname === '') errors.push(required('spec.externalName'));
    else for (const msg of dns1123Subdomain(cname)) errors.push(invalidValue('spec.externalName', cname, msg));
  }
  if (spec.allocateLoadBalancerNodePorts !== undefined && spec.type !== 'LoadBalancer') errors.push(forbidden('spec.allocateLoadBalancerNodePorts', "may only be used when `type` is 'LoadBalancer'"));
  // Upstream names this field without its `spec.` (a quirk kept for clients matching on it).
  if (spec.type === 'LoadBalancer' && spec.allocateLoadBalancerNodePorts === undefined) errors.push(required('allocateLoadBalancerNodePorts'));
  return errors;
}

function validateAffinityAndTraffic(spec: ServiceSpec): FieldError[] {
  const errors: FieldError[] = [];
  if (!spec.sessionAffinity) errors.push(required('spec.sessionAffinity'));
  else if (!affinities.includes(spec.sessionAffinity)) errors.push(notSupported('spec.sessionAffinity', spec.sessionAffinity, affinities));
  const timeout = spec.sessionAffinityConfig?.clientIP?.timeoutSeconds;
  if (spec.sessionAffinity === 'ClientIP' && !(typeof timeout === 'number' && timeout > 0 && timeout <= 86400)) {
    errors.push(invalidShown('spec.sessionAffinityConfig.clientIP.timeoutSeconds', String(timeout ?? 0), 'must be greater than 0 and less than 86400'));
  }
  if (spec.sessionAffinity === 'None' && spec.sessionAffinityConfig !== undefined) errors.push(forbidden('spec.sessionAffinityConfig', 'must not be set when session affinity is None'));
  const external = spec.type === 'NodePort' || spec.type === 'LoadBalancer';
  if (external && !spec.externalTrafficPolicy) errors.push(required('spec.externalTrafficPolicy'));
  else if (external && !trafficPolicies.includes(spec.externalTrafficPolicy ?? '')) errors.push(notSupported('spec.externalTrafficPolicy', spec.externalTrafficPolicy, trafficPolicies));
  else if (!external && spec.externalTrafficPolicy && !(spec.type === 'ClusterIP' && (spec.externalIPs ?? []).length > 0)) {
    errors.push(invalidValue('spec.externalTrafficPolicy', spec.externalTrafficPolicy, 'may only be set for externally-accessible services'));
  }
  if (!needsHealthCheck(spec) && spec.healthCheckNodePort) {
    errors.push(invalidShown('spec.healthCheckNodePort', String(spec.healthCheckNodePort), "may only be set when `type` is 'LoadBalancer' and `externalTrafficPolicy` is 'Local'"));
  } else if (needsHealthCheck(spec) && spec.healthCheckNodePort !== undefined && spec.healthCheckNodePort !== 0 && !validPort(spec.healthCheckNodePort)) {
    errors.push(invalidShown('spec.healthCheckNodePort', String(spec.healthCheckNodePort), portRangeMessage));
  }
  if (spec.internalTrafficPolicy === undefined && ['NodePort', 'LoadBalancer', 'ClusterIP'].includes(spec.type ?? '')) errors.push(required('spec.internalTrafficPolicy'));
  else if (spec.internalTrafficPolicy !== undefined && !trafficPolicies.includes(spec.internalTrafficPolicy)) errors.push(notSupported('spec.internalTrafficPolicy', spec.internalTrafficPolicy, trafficPolicies));
  return errors;
}

/**
 * ValidateService (pkg/apis/core/validation/validation.go, 1.28) for what the registry checks:
 * type, ports, the clusterIP fields, ExternalName, session affinity, traffic policies, selector
 * and external addresses. The health check node port is checked here only for its range; it is
 * allocated (or refused) by the Service hooks after validation.
 */
export function validateService(svc: KObject): FieldError[] {
  const spec = specOf(svc);
  const errors = [...validateTypeSpecific(spec), ...validatePorts(spec)];
  if (spec.selector !== undefined) errors.push(...validateLabels(spec.selector, 'spec.selector'));
  errors.push(...validateAffinityAndTraffic(spec), ...validateClusterIpFields(spec), ...validateExternalAddresses(svc, spec));
  return errors;
}

function clusterIpChanges(next: ServiceSpec, old: ServiceSpec): FieldError[] {
  if (next.type === 'ExternalName' || old.type === 'ExternalName' || (isHeadless(old) && isHeadless(next))) return [];
  const before = clusterIpsOf(old);
  const after = clusterIpsOf(next);
  const shown = goStrings(after);
  const errors: FieldError[] = [];
  if (before.length === after.length) {
    for (const [i, ip] of before.entries()) if (ip !== after[i]) errors.push(invalidShown(`spec.clusterIPs[${i}]`, shown, 'may not change once set'));
  } else if (before.length > after.length) {
    if (after.length === 0) errors.push(invalidShown('spec.clusterIPs[0]', shown, 'primary clusterIP can not be unset'));
    else if (after[0] !== before[0]) errors.push(invalidShown('spec.clusterIPs[0]', shown, 'may not change once set'));
    if (after.length === 1 && next.ipFamilyPolicy !== 'SingleStack') {
      errors.push(invalidShown('spec.ipFamilyPolicy', next.ipFamilyPolicy === undefined ? 'null' : JSON.stringify(next.ipFamilyPolicy), "must be set to 'SingleStack' when releasing the secondary clusterIP"));
    }
  } else if (before.length > 0 && after[0] !== before[0]) errors.push(invalidShown('spec.clusterIPs[0]', shown, 'may not change once set'));
  return errors;
}

function ipFamilyChanges(next: ServiceSpec, old: ServiceSpec): FieldError[] {
  if (next.type === 'ExternalName' || old.type === 'ExternalName' || isHeadless(old) || isHeadless(next)) return [];
  const before = ipFamiliesOf(old);
  const after = ipFamiliesOf(next);
  const errors: FieldError[] = [];
  if (before.length === after.length) {
    if (before.some((f, i) => f !== after[i])) errors.push(invalidShown('spec.ipFamilies[0]', goStrings(after), 'may not change once set'));
  } else if (before.length > after.length) {
    if (after.length > 0 && after[0] !== before[0]) errors.push(invalidShown('spec.ipFamilies[0]', goStrings(clusterIpsOf(next)), 'may not change once set'));
    if (after.length === 1 && next.ipFamilyPolicy !== 'SingleStack') {
      errors.push(invalidShown('spec.ipFamilyPolicy', next.ipFamilyPolicy === undefined ? 'null' : JSON.stringify(next.ipFamilyPolicy), "must be set to 'SingleStack' when releasing the secondary ipFamily"));
    }
  } else if (before.length > 0 && after.length > 0 && after[0] !== before[0]) errors.push(invalidShown('spec.ipFamilies[0]', goStrings(clusterIpsOf(next)), 'may not change once set'));
  return errors;
}

/**
 * ValidateServiceUpdate's own rules: cluster IPs and IP families may not change, except to add
 * or release a secondary one (or to and from ExternalName, or between headless forms); the
 * health check node port may not change while it is needed.
 */
export function validateServiceUpdate(svc: KObject, old: KObject): FieldError[] {
  const next = specOf(svc);
  const before = specOf(structuredClone(old));
  const errors = [...clusterIpChanges(next, before), ...ipFamilyChanges(next, before)];
  if (needsHealthCheck(before) && needsHealthCheck(next) && next.healthCheckNodePort !== before.healthCheckNodePort) errors.push(forbidden('spec.healthCheckNodePort', 'field is immutable'));
  return errors;
}
