// EndpointSlices (discovery.<domain>/v1), as kube-apiserver 1.28 serves them:
// SetDefaults_EndpointPort, pkg/registry/discovery/endpointslice/strategy.go,
// ValidateEndpointSliceCreate/Update of pkg/apis/discovery/validation and printEndpointSlice.
import type { KObject, ResourceDeclaration } from '../schema/declaration.ts';
import { duplicate, immutable, invalidValue, notSupported, required, tooMany, type FieldError } from '../schema/field-errors.ts';
import { validateLabels } from '../schema/metadata-validation.ts';
import { dns1123Label, dns1123Subdomain, qualifiedName } from '../schema/name-validation.ts';
import { ageColumn, nameColumn } from '../schema/printers.ts';
import { builtinFields, builtinRequired } from '../schema/builtin-schemas.ts';
import { stableStringify } from '../generic/stable-json.ts';
import { ipFamily, nonSpecialIpProblems, parseIpSloppy } from '../schema/ip-address.ts';

const addressTypes = ['FQDN', 'IPv4', 'IPv6'];
const protocols = ['SCTP', 'TCP', 'UDP'];
const endpointsMax = 1000;
const addressesMax = 100;
const portsMax = 20000;
const topologyLabelsMax = 16;

interface Endpoint {
  addresses?: unknown;
  nodeName?: unknown;
  hostname?: unknown;
  deprecatedTopology?: unknown;
}

/** IsFullyQualifiedDomainName: a subdomain (a trailing dot allowed) of at least two labels. */
function fqdnProblems(at: string, name: string): FieldError[] {
  if (name === '') return [required(at)];
  const trimmed = name.endsWith('.') ? name.slice(0, -1) : name;
  const subdomain = dns1123Subdomain(trimmed);
  if (subdomain.length > 0) return [invalidValue(at, trimmed, subdomain.join(','))];
  const labels = trimmed.split('.');
  if (labels.length < 2) return [invalidValue(at, trimmed, 'should be a domain with at least two segments separated by dots')];
  for (const label of labels) {
    const problems = dns1123Label(label);
    if (problems.length > 0) return [invalidValue(at, label, problems.join(','))];
  }
  return [];
}

function validateAddress(address: string, at: string, addressType: unknown): FieldError[] {
  if (addressType === 'FQDN') return fqdnProblems(at, address);
  if (addressType !== 'IPv4' && addressType !== 'IPv6') return [];
  // IsValidIPv4Address / IsValidIPv6Address (by Go's To4: ::ffff:a.b.c.d is IPv4), then ValidateNonSpecialIP.
  const ip = parseIpSloppy(address);
  const errors: FieldError[] = ip !== undefined && ipFamily(ip) === addressType ? [] : [invalidValue(at, address, `must be a valid ${addressType} address`)];
  return [...errors, ...nonSpecialIpProblems(address).map((p) => invalidValue(at, address, p))];
}

function validateEndpoint(e: Endpoint, at: string, addressType: unknown): FieldError[] {
  const addresses = Array.isArray(e.addresses) ? (e.addresses as string[]) : [];
  const errors: FieldError[] = [];
  if (addresses.length === 0) errors.push(required(`${at}.addresses`, 'must contain at least 1 address'));
  else if (addresses.length > addressesMax) errors.push(tooMany(`${at}.addresses`, addresses.length, addressesMax));
  addresses.forEach((a, j) => errors.push(...validateAddress(String(a), `${at}.addresses[${j}]`, addressType)));
  if (typeof e.nodeName === 'string') errors.push(...dns1123Subdomain(e.nodeName).map((p) => invalidValue(`${at}.nodeName`, e.nodeName, p)));
  const topology = typeof e.deprecatedTopology === 'object' && e.deprecatedTopology !== null ? e.deprecatedTopology : {};
  const topologyCount = Object.keys(topology).length;
  if (topologyCount > topologyLabelsMax) errors.push(tooMany(`${at}.deprecatedTopology`, topologyCount, topologyLabelsMax));
  errors.push(...validateLabels(topology, `${at}.deprecatedTopology`));
  if (typeof e.hostname === 'string') errors.push(...dns1123Label(e.hostname).map((p) => invalidValue(`${at}.hostname`, e.hostname, p)));
  return errors;
}

function validatePorts(ports: unknown): FieldError[] {
  const list = Array.isArray(ports) ? (ports as { name?: unknown; protocol?: unknown; appProtocol?: unknown }[]) : [];
  if (list.length > portsMax) return [tooMany('ports', list.length, portsMax)];
  const names = new Set<string>();
  return list.flatMap((p, i) => {
    const at = `ports[${i}]`;
    const name = String(p.name ?? '');
    const errors = name === '' ? [] : dns1123Label(name).map((m) => invalidValue(`${at}.name`, name, m));
    if (names.has(name)) errors.push(duplicate(`${at}.name`, name));
    names.add(name);
    if (p.protocol === undefined || p.protocol === null) errors.push(required(`${at}.protocol`));
    else if (!protocols.includes(p.protocol as string)) errors.push(notSupported(`${at}.protocol`, p.protocol, protocols));
    if (typeof p.appProtocol === 'string') errors.push(...qualifiedName(p.appProtocol).map((m) => invalidValue(`${at}.appProtocol`, p.appProtocol, m)));
    return errors;
  });
}

function validateEndpointSlice(o: KObject): FieldError[] {
  const endpoints = Array.isArray(o.endpoints) ? (o.endpoints as Endpoint[]) : [];
  if (endpoints.length > endpointsMax) return [tooMany('endpoints', endpoints.length, endpointsMax), ...validatePorts(o.ports)];
  return [...endpoints.flatMap((e, i) => validateEndpoint(e ?? {}, `endpoints[${i}]`, o.addressType)), ...validatePorts(o.ports)];
}

/** At most three items, then `+ N more...`; `<unset>` for none (listWithMoreString). */
function listCell(items: readonly string[]): string {
  if (items.length === 0) return '<unset>';
  return items.length > 3 ? `${items.slice(0, 3).join(',')} + ${items.length - 3} more...` : items.join(',');
}

function portsCell(o: KObject): string {
  const ports = Array.isArray(o.ports) ? (o.ports as { port?: number; name?: string }[]) : [];
  return listCell(ports.map((p) => (typeof p.port === 'number' ? String(p.port) : p.name !== undefined ? p.name : '*')));
}

function endpointsCell(o: KObject): string {
  const endpoints = Array.isArray(o.endpoints) ? (o.endpoints as { addresses?: string[] }[]) : [];
  return listCell(endpoints.flatMap((e) => e.addresses ?? []));
}

/** EndpointSlices (discovery.<domain>/v1): a Service's endpoints, in slices of one address type. */
export const endpointslices: ResourceDeclaration = {
  group: 'discovery',
  groupQualified: true,
  version: 'v1',
  kind: 'EndpointSlice',
  plural: 'endpointslices',
  singular: 'endpointslice',
  namespaced: true,
  nameRule: 'subdomain',
  description: 'EndpointSlice represents a subset of the endpoints that implement a service.',
  fields: builtinFields('io.k8s.api.discovery.v1.EndpointSlice'),
  required: builtinRequired('io.k8s.api.discovery.v1.EndpointSlice'),
  printerColumns: [
    nameColumn,
    { name: 'AddressType', type: 'string', description: 'addressType specifies the type of address carried by this EndpointSlice.', cell: (o) => String(o.addressType ?? '') },
    { name: 'Ports', type: 'string', description: 'ports specifies the list of network ports exposed by each endpoint in this slice.', cell: portsCell },
    { name: 'Endpoints', type: 'string', description: 'endpoints is a list of unique endpoints in this slice.', cell: endpointsCell },
    ageColumn,
  ],
  strategy: {
    allowCreateOnUpdate: false,
    prepareForCreate(o) {
      o.metadata.generation = 1;
    },
    prepareForUpdate(o, old) {
      // Any change but to metadata, or a change of labels, counts as a new generation.
      const { metadata: _m, ...after } = o;
      const { metadata: _o, ...before } = old;
      const changed = stableStringify(after) !== stableStringify(before) || stableStringify(o.metadata.labels ?? {}) !== stableStringify(old.metadata.labels ?? {});
      o.metadata.generation = (old.metadata.generation ?? 1) + (changed ? 1 : 0);
    },
    applyDefaults(o) {
      for (const p of Array.isArray(o.ports) ? (o.ports as Record<string, unknown>[]) : []) {
        if (typeof p !== 'object' || p === null) continue;
        p.name ??= '';
        p.protocol ??= 'TCP';
      }
    },
    validate: validateEndpointSlice,
    validateCreate(o) {
      if (o.addressType === undefined || o.addressType === '') return [required('addressType')];
      return addressTypes.includes(o.addressType as string) ? [] : [notSupported('addressType', o.addressType, addressTypes)];
    },
    validateUpdate: (o, old) => (o.addressType === old.addressType ? [] : [immutable('addressType', o.addressType ?? null)]),
  },
};
