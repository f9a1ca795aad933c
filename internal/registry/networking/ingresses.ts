// Ingresses (networking.<domain>/v1), as kube-apiserver 1.28 serves them:
// pkg/registry/networking/ingress/strategy.go, ValidateIngressCreate/Update of
// pkg/apis/networking/validation/validation.go and printIngress.
import type { KObject, ResourceDeclaration } from '../schema/declaration.ts';
import { invalidValue, notSupported, required, type FieldError } from '../schema/field-errors.ts';
import { dns1123Subdomain } from '../schema/name-validation.ts';
import { ageColumn, field, nameColumn } from '../schema/printers.ts';
import { builtinFields, builtinRequired } from '../schema/builtin-schemas.ts';
import { validateBackend } from './ingress-backend.ts';
import { parseIPVersion, problemsAt, wildcardSubdomain } from './network-validation.ts';

const pathTypes = ['Exact', 'ImplementationSpecific', 'Prefix'];
const invalidPathSequences = ['//', '/./', '/../', '%2f', '%2F'];
const invalidPathSuffixes = ['/..', '/.'];
const ingressClassAnnotation = 'kubernetes.io/ingress.class';

interface HttpPath {
  path?: unknown;
  pathType?: unknown;
  backend?: Record<string, unknown>;
}

function validatePath(p: HttpPath, at: string): FieldError[] {
  if (p.pathType === undefined || p.pathType === null) return [required(`${at}.pathType`, 'pathType must be specified')];
  const errors: FieldError[] = [];
  const path = typeof p.path === 'string' ? p.path : '';
  if (p.pathType === 'Exact' || p.pathType === 'Prefix') {
    if (!path.startsWith('/')) errors.push(invalidValue(`${at}.path`, path, 'must be an absolute path'));
    for (const seq of invalidPathSequences) if (path.includes(seq)) errors.push(invalidValue(`${at}.path`, path, `must not contain '${seq}'`));
    for (const suffix of invalidPathSuffixes) if (path.endsWith(suffix)) errors.push(invalidValue(`${at}.path`, path, `cannot end with '${suffix}'`));
  } else if (p.pathType === 'ImplementationSpecific') {
    if (path !== '' && !path.startsWith('/')) errors.push(invalidValue(`${at}.path`, path, 'must be an absolute path'));
  } else {
    errors.push(notSupported(`${at}.pathType`, p.pathType, pathTypes));
  }
  return [...errors, ...validateBackend(p.backend ?? {}, `${at}.backend`)];
}

function validateHost(host: string, at: string): FieldError[] {
  const errors: FieldError[] = parseIPVersion(host) !== 0 ? [invalidValue(at, host, 'must be a DNS name, not an IP address')] : [];
  return [...errors, ...problemsAt(at, host, host.includes('*') ? wildcardSubdomain(host) : dns1123Subdomain(host))];
}

function validateRules(rules: { host?: unknown; http?: { paths?: unknown } }[]): FieldError[] {
  return rules.flatMap((rule, i) => {
    const at = `spec.rules[${i}]`;
    const errors = typeof rule.host === 'string' && rule.host !== '' ? validateHost(rule.host, `${at}.host`) : [];
    if (rule.http !== undefined && rule.http !== null) {
      const paths = Array.isArray(rule.http.paths) ? (rule.http.paths as HttpPath[]) : [];
      if (paths.length === 0) errors.push(required(`${at}.http.paths`));
      paths.forEach((p, j) => errors.push(...validatePath(p, `${at}.http.paths[${j}]`)));
    }
    return errors;
  });
}

function validateTLS(tls: { hosts?: unknown; secretName?: unknown }[]): FieldError[] {
  return tls.flatMap((t, i) => {
    const hosts = Array.isArray(t.hosts) ? (t.hosts as string[]) : [];
    const errors = hosts.flatMap((h, j) => problemsAt(`spec.tls[${i}].hosts[${j}]`, h, h.includes('*') ? wildcardSubdomain(h) : dns1123Subdomain(h)));
    if (typeof t.secretName === 'string' && t.secretName !== '') errors.push(...problemsAt(`spec.tls[${i}].secretName`, t.secretName, dns1123Subdomain(t.secretName)));
    return errors;
  });
}

/** ValidateIngressSpec: rules or a default backend, each valid; TLS hosts and secrets; the class name. */
function validateIngress(o: KObject): FieldError[] {
  const spec = (o.spec ?? {}) as { rules?: unknown; defaultBackend?: Record<string, unknown>; tls?: unknown; ingressClassName?: unknown };
  const rules = Array.isArray(spec.rules) ? (spec.rules as { host?: unknown; http?: { paths?: unknown } }[]) : [];
  const errors: FieldError[] = [];
  if (rules.length === 0 && (spec.defaultBackend === undefined || spec.defaultBackend === null)) errors.push(invalidValue('spec', spec.rules ?? null, 'either `defaultBackend` or `rules` must be specified'));
  if (spec.defaultBackend !== undefined && spec.defaultBackend !== null) errors.push(...validateBackend(spec.defaultBackend, 'spec.defaultBackend'));
  errors.push(...validateRules(rules));
  if (Array.isArray(spec.tls)) errors.push(...validateTLS(spec.tls as { hosts?: unknown; secretName?: unknown }[]));
  if (typeof spec.ingressClassName === 'string') errors.push(...problemsAt('spec.ingressClassName', spec.ingressClassName, dns1123Subdomain(spec.ingressClassName)));
  return errors;
}

/** ValidateIngressCreate also refuses a class annotation that disagrees with ingressClassName. */
function validateIngressCreate(o: KObject): FieldError[] {
  const annotation = o.metadata.annotations?.[ingressClassAnnotation];
  const className = field(o, 'spec.ingressClassName');
  if (annotation !== undefined && typeof className === 'string' && annotation !== className) {
    return [invalidValue(`annotations.${ingressClassAnnotation}`, annotation, 'must match `ingressClassName` when both are specified')];
  }
  return [];
}

function addressCell(o: KObject): string {
  const ingress = field(o, 'status.loadBalancer.ingress');
  const list = Array.isArray(ingress) ? (ingress as { ip?: string; hostname?: string }[]) : [];
  return [...new Set(list.map((i) => i.ip || i.hostname || '').filter((a) => a !== ''))].join(',');
}

/** formatHosts: the first three hosts named, `+ N more...` (N counting rules) past them, `*` for none. */
function hostsCell(o: KObject): string {
  const rules = field(o, 'spec.rules');
  const list = Array.isArray(rules) ? (rules as { host?: string }[]) : [];
  const hosts: string[] = [];
  let more = false;
  for (const rule of list) {
    if (hosts.length === 3) more = true;
    if (!more && rule.host) hosts.push(rule.host);
  }
  if (hosts.length === 0) return '*';
  return more ? `${hosts.join(',')} + ${list.length - 3} more...` : hosts.join(',');
}

/** Ingresses (networking.<domain>/v1): HTTP routes from outside the cluster to Services. */
export const ingresses: ResourceDeclaration = {
  group: 'networking',
  groupQualified: true,
  version: 'v1',
  kind: 'Ingress',
  plural: 'ingresses',
  singular: 'ingress',
  shortNames: ['ing'],
  namespaced: true,
  nameRule: 'subdomain',
  description: 'Ingress is a collection of rules that allow inbound connections to reach the endpoints defined by a backend.',
  fields: builtinFields('io.k8s.api.networking.v1.Ingress'),
  required: builtinRequired('io.k8s.api.networking.v1.Ingress'),
  subresources: { status: true },
  tracksGeneration: true,
  printerColumns: [
    nameColumn,
    { name: 'Class', type: 'string', description: 'The name of the IngressClass resource that should be used for additional configuration', cell: (o) => String(field(o, 'spec.ingressClassName') ?? '<none>') },
    { name: 'Hosts', type: 'string', description: 'Hosts that incoming requests are matched against before the ingress rule', cell: hostsCell },
    { name: 'Address', type: 'string', description: 'Address is a list containing ingress points for the load-balancer', cell: addressCell },
    { name: 'Ports', type: 'string', description: 'Ports of TLS configurations that open', cell: (o) => (Array.isArray(field(o, 'spec.tls')) && (field(o, 'spec.tls') as unknown[]).length > 0 ? '80, 443' : '80') },
    ageColumn,
  ],
  strategy: {
    allowCreateOnUpdate: false,
    prepareForCreate(o) {
      o.status = { loadBalancer: {} };
    },
    validate: validateIngress,
    validateCreate: validateIngressCreate,
  },
};
