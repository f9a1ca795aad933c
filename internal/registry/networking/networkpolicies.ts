// NetworkPolicies (networking.<domain>/v1), as kube-apiserver 1.28 serves them:
// SetDefaults_NetworkPolicy(Port), ValidateNetworkPolicy and printNetworkPolicy.
import type { KObject, ResourceDeclaration } from '../schema/declaration.ts';
import { forbidden, invalidValue, notSupported, required, type FieldError } from '../schema/field-errors.ts';
import { formatLabelSelector, validateLabelSelector } from '../schema/label-selectors.ts';
import { ageColumn, field, nameColumn } from '../schema/printers.ts';
import { builtinFields, builtinRequired } from '../schema/builtin-schemas.ts';
import { cidrContains, parseCIDR, portNumber, problemsAt } from './network-validation.ts';
import { portName } from '../schema/name-validation.ts';

const protocols = ['TCP', 'UDP', 'SCTP'];
const policyTypes = ['Ingress', 'Egress'];

interface Port {
  protocol?: unknown;
  port?: unknown;
  endPort?: unknown;
}

function validatePort(p: Port, at: string): FieldError[] {
  const errors: FieldError[] = [];
  if (p.protocol !== undefined && !protocols.includes(p.protocol as string)) errors.push(notSupported(`${at}.protocol`, p.protocol, protocols));
  if (typeof p.port === 'number') {
    errors.push(...problemsAt(`${at}.port`, p.port, portNumber(p.port)));
    if (typeof p.endPort === 'number') {
      if (p.endPort < p.port) errors.push(invalidValue(`${at}.endPort`, p.port, 'must be greater than or equal to `port`'));
      errors.push(...problemsAt(`${at}.endPort`, p.endPort, portNumber(p.endPort)));
    }
  } else if (typeof p.port === 'string') {
    if (p.endPort !== undefined) errors.push(invalidValue(`${at}.endPort`, p.endPort, 'may not be specified when `port` is non-numeric'));
    errors.push(...problemsAt(`${at}.port`, p.port, portName(p.port)));
  } else if (p.endPort !== undefined) {
    errors.push(invalidValue(`${at}.endPort`, p.endPort, 'may not be specified when `port` is not specified'));
  }
  return errors;
}

function validateIPBlock(block: { cidr?: unknown; except?: unknown }, at: string): FieldError[] {
  const cidrText = typeof block.cidr === 'string' ? block.cidr : '';
  if (cidrText === '') return [required(`${at}.cidr`)];
  const cidr = parseCIDR(cidrText);
  if (cidr === undefined) return [invalidValue(`${at}.cidr`, cidrText, 'not a valid CIDR')];
  const errors: FieldError[] = [];
  for (const [i, text] of (Array.isArray(block.except) ? (block.except as string[]) : []).entries()) {
    const except = parseCIDR(String(text));
    if (except === undefined) return [...errors, invalidValue(`${at}.except[${i}]`, text, 'not a valid CIDR')];
    if (!cidrContains(cidr, except.bytes) || cidr.prefix >= except.prefix) errors.push(invalidValue(`${at}.except[${i}]`, text, 'must be a strict subset of `cidr`'));
  }
  return errors;
}

function validatePeer(peer: { podSelector?: unknown; namespaceSelector?: unknown; ipBlock?: { cidr?: unknown; except?: unknown } }, at: string): FieldError[] {
  const errors: FieldError[] = [];
  let peers = 0;
  for (const key of ['podSelector', 'namespaceSelector'] as const) {
    if (peer[key] === undefined || peer[key] === null) continue;
    peers++;
    errors.push(...validateLabelSelector(peer[key], `${at}.${key}`));
  }
  if (peer.ipBlock !== undefined && peer.ipBlock !== null) {
    peers++;
    errors.push(...validateIPBlock(peer.ipBlock, `${at}.ipBlock`));
  }
  if (peers === 0) errors.push(required(at, 'must specify a peer'));
  else if (peers > 1 && peer.ipBlock !== undefined && peer.ipBlock !== null) errors.push(forbidden(at, 'may not specify both ipBlock and another peer'));
  return errors;
}

function validateRules(o: KObject, direction: 'ingress' | 'egress', peersKey: 'from' | 'to'): FieldError[] {
  const rules = field(o, `spec.${direction}`);
  return (Array.isArray(rules) ? (rules as Record<string, unknown>[]) : []).flatMap((rule, i) => {
    const at = `spec.${direction}[${i}]`;
    const ports = Array.isArray(rule.ports) ? (rule.ports as Port[]) : [];
    const peers = Array.isArray(rule[peersKey]) ? (rule[peersKey] as Record<string, never>[]) : [];
    return [...ports.flatMap((p, j) => validatePort(p, `${at}.ports[${j}]`)), ...peers.flatMap((p, j) => validatePeer(p, `${at}.${peersKey}[${j}]`))];
  });
}

function validateNetworkPolicy(o: KObject): FieldError[] {
  const errors = [...validateLabelSelector(field(o, 'spec.podSelector'), 'spec.podSelector'), ...validateRules(o, 'ingress', 'from'), ...validateRules(o, 'egress', 'to')];
  const types = field(o, 'spec.policyTypes');
  const list = Array.isArray(types) ? types : [];
  if (list.length > policyTypes.length) return [...errors, invalidValue('spec.policyTypes', list, 'may not specify more than two policyTypes')];
  list.forEach((t, i) => {
    if (!policyTypes.includes(t as string)) errors.push(notSupported(`spec.policyTypes[${i}]`, t, policyTypes));
  });
  return errors;
}

function defaultNetworkPolicy(o: KObject): void {
  const spec = (o.spec ??= {}) as Record<string, unknown>;
  for (const direction of ['ingress', 'egress']) {
    const rules = spec[direction];
    if (!Array.isArray(rules)) continue;
    for (const rule of rules as { ports?: Port[] }[]) for (const p of rule?.ports ?? []) if (typeof p === 'object' && p !== null) p.protocol ??= 'TCP';
  }
  if (!Array.isArray(spec.policyTypes) || spec.policyTypes.length === 0) {
    const egress = Array.isArray(spec.egress) && spec.egress.length > 0;
    spec.policyTypes = egress ? ['Ingress', 'Egress'] : ['Ingress'];
  }
}

/** NetworkPolicies (networking.<domain>/v1): which traffic pods may send and receive. */
export const networkpolicies: ResourceDeclaration = {
  group: 'networking',
  groupQualified: true,
  version: 'v1',
  kind: 'NetworkPolicy',
  plural: 'networkpolicies',
  singular: 'networkpolicy',
  shortNames: ['netpol'],
  namespaced: true,
  nameRule: 'subdomain',
  description: 'NetworkPolicy describes what network traffic is allowed for a set of Pods.',
  fields: builtinFields('io.k8s.api.networking.v1.NetworkPolicy'),
  required: builtinRequired('io.k8s.api.networking.v1.NetworkPolicy'),
  tracksGeneration: true,
  printerColumns: [
    nameColumn,
    { name: 'Pod-Selector', type: 'string', description: 'podSelector selects the pods to which this NetworkPolicy object applies.', cell: (o) => formatLabelSelector(field(o, 'spec.podSelector')) },
    ageColumn,
  ],
  strategy: {
    allowCreateOnUpdate: false,
    applyDefaults: defaultNetworkPolicy,
    validate: validateNetworkPolicy,
  },
};
