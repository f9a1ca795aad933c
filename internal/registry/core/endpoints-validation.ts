// Endpoints as ValidateEndpoints (pkg/apis/core/validation, 1.28) checks them: each subset has
// addresses, each address is an IP that is not unspecified, loopback or link-local (an invalid
// one is reported by IsValidIP and by ValidateNonSpecialIP both, as kube-apiserver does), its
// hostname a DNS label and node name a subdomain; each port named when there are several, in
// range, with a protocol.
import type { KObject } from '../schema/declaration.ts';
import { invalidValue, notSupported, required, type FieldError } from '../schema/field-errors.ts';
import { nonSpecialIpProblems, validateIpAddress } from '../schema/ip-address.ts';
import { dns1123Label, dns1123Subdomain } from '../schema/name-validation.ts';

type Json = Record<string, unknown>;

const protocols = ['SCTP', 'TCP', 'UDP'];
const loopbackMessage = 'may not be in the loopback range (127.0.0.0/8, ::1/128)';

const objects = (value: unknown): Json[] => (Array.isArray(value) ? value.map((v) => (typeof v === 'object' && v !== null ? (v as Json) : {})) : []);

/**
 * Whether loopback addresses are allowed: in `default/kubernetes` only, which each replica fills
 * with its advertise address, and a development cluster advertises 127.0.0.1 (kube-apiserver
 * refuses such an address at start; orch serves it).
 */
function allowsLoopback(o: KObject): boolean {
  return o.metadata.namespace === 'default' && o.metadata.name === 'kubernetes';
}

function validateAddress(address: Json, at: string, loopbackAllowed: boolean): FieldError[] {
  const errors = validateIpAddress(`${at}.ip`, address.ip);
  if (typeof address.hostname === 'string' && address.hostname !== '') errors.push(...dns1123Label(address.hostname).map((p) => invalidValue(`${at}.hostname`, address.hostname, p)));
  if (typeof address.nodeName === 'string') errors.push(...dns1123Subdomain(address.nodeName).map((p) => invalidValue(`${at}.nodeName`, address.nodeName, p)));
  const ip = typeof address.ip === 'string' ? address.ip : '';
  const special = nonSpecialIpProblems(ip).filter((p) => !(loopbackAllowed && p === loopbackMessage));
  return [...errors, ...special.map((p) => invalidValue(`${at}.ip`, ip, p))];
}

function validatePort(port: Json, at: string, requireName: boolean): FieldError[] {
  const errors: FieldError[] = [];
  const name = typeof port.name === 'string' ? port.name : '';
  if (requireName && name === '') errors.push(required(`${at}.name`));
  else if (name !== '') errors.push(...dns1123Label(name).map((p) => invalidValue(`${at}.name`, name, p)));
  const number = port.port;
  if (!(typeof number === 'number' && number >= 1 && number <= 65535)) errors.push(invalidValue(`${at}.port`, number ?? 0, 'must be between 1 and 65535, inclusive'));
  if (port.protocol === undefined || port.protocol === '') errors.push(required(`${at}.protocol`));
  else if (!protocols.includes(String(port.protocol))) errors.push(notSupported(`${at}.protocol`, port.protocol, protocols));
  return errors;
}

/** validateEndpointSubsets of an Endpoints object, under `subsets`. */
export function validateEndpoints(o: KObject): FieldError[] {
  const loopbackAllowed = allowsLoopback(o);
  return objects(o.subsets).flatMap((subset, i) => {
    const at = `subsets[${i}]`;
    const addresses = objects(subset.addresses);
    const notReady = objects(subset.notReadyAddresses);
    const ports = objects(subset.ports);
    const errors = addresses.length === 0 && notReady.length === 0 ? [required(at, 'must specify `addresses` or `notReadyAddresses`')] : [];
    addresses.forEach((a, j) => errors.push(...validateAddress(a, `${at}.addresses[${j}]`, loopbackAllowed)));
    notReady.forEach((a, j) => errors.push(...validateAddress(a, `${at}.notReadyAddresses[${j}]`, loopbackAllowed)));
    ports.forEach((p, j) => errors.push(...validatePort(p, `${at}.ports[${j}]`, ports.length > 1)));
    return errors;
  });
}

/** SetDefaults_EndpointPort: a port's protocol is TCP unless given. */
export function defaultEndpoints(o: KObject): void {
  for (const subset of objects(o.subsets)) for (const port of Array.isArray(subset.ports) ? subset.ports : []) if (typeof port === 'object' && port !== null) (port as Json).protocol ??= 'TCP';
}
