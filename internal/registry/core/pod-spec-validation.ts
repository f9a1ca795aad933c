// The parts of ValidatePodSpec (pkg/apis/core/validation, 1.28) beyond the containers, for a pod
// and for every pod template: volumes, host aliases, seccomp profiles, tolerations, node
// affinity, topology spread, scheduling gates, the preemption policy and the OS name.
import type { KObject } from '../schema/declaration.ts';
import { invalidValue, notSupported, required, type FieldError } from '../schema/field-errors.ts';
import { parseIpSloppy } from '../schema/ip-address.ts';
import { dns1123Subdomain } from '../schema/name-validation.ts';
import { field } from '../schema/printers.ts';
import { validateNodeAffinity, validatePreemptionPolicy, validateSchedulingGates, validateTolerations, validateTopologySpread } from './pod-scheduling-validation.ts';
import { validateVolumes } from './pod-volume-validation.ts';

type Json = Record<string, unknown>;

const objects = (value: unknown): Json[] => (Array.isArray(value) ? value.map((v) => (typeof v === 'object' && v !== null ? (v as Json) : {})) : []);
const seccompTypes = ['Localhost', 'RuntimeDefault', 'Unconfined'];
const operatingSystems = ['linux', 'windows'];

/** ValidateHostAliases: each IP an address (Go's "must be valid IP address"), each hostname a subdomain. */
function validateHostAliases(aliases: unknown, path: string): FieldError[] {
  return objects(aliases).flatMap((alias, i) => {
    const ip = typeof alias.ip === 'string' ? alias.ip : '';
    const errors = parseIpSloppy(ip) === undefined ? [invalidValue(`${path}[${i}].ip`, ip, 'must be valid IP address')] : [];
    (Array.isArray(alias.hostnames) ? alias.hostnames : []).forEach((h, j) => errors.push(...dns1123Subdomain(String(h)).map((p) => invalidValue(`${path}[${i}].hostnames[${j}]`, h, p))));
    return errors;
  });
}

/** validateSeccompProfileField of the profile inside the security context at `path`. */
function validateSeccomp(securityContext: unknown, path: string): FieldError[] {
  const profile = typeof securityContext === 'object' && securityContext !== null ? (securityContext as Json).seccompProfile : undefined;
  if (typeof profile !== 'object' || profile === null) return [];
  const at = `${path}.seccompProfile`;
  const { type, localhostProfile } = profile as Json;
  const errors: FieldError[] = [];
  if (type === undefined || type === '') errors.push(required(`${at}.type`, 'type is required when seccompProfile is set'));
  else if (!seccompTypes.includes(String(type))) errors.push(notSupported(`${at}.type`, type, seccompTypes));
  if (type === 'Localhost' && (localhostProfile === undefined || localhostProfile === null)) errors.push(required(`${at}.localhostProfile`, 'must be set when seccomp type is Localhost'));
  return errors;
}

/** validateOS: a name, one of kube-apiserver's (the error names `os`, not `os.name`). */
function validateOs(os: unknown, path: string): FieldError[] {
  if (typeof os !== 'object' || os === null) return [];
  const name = (os as Json).name;
  if (name === undefined || name === '') return [required(`${path}.name`, 'cannot be empty')];
  return operatingSystems.includes(String(name)) ? [] : [notSupported(path, name, operatingSystems)];
}

/** The pod spec checks at `path` (`spec`, `spec.template.spec`) of `o` that validateContainers leaves. */
export function validatePodSpecDetails(o: KObject, path: string): FieldError[] {
  const spec = field(o, path);
  if (typeof spec !== 'object' || spec === null) return [];
  const s = spec as Json;
  const containerSeccomp = ['containers', 'initContainers'].flatMap((list) => objects(s[list]).flatMap((c, i) => validateSeccomp(c.securityContext, `${path}.${list}[${i}].securityContext`)));
  return [
    ...validateVolumes(s.volumes, `${path}.volumes`),
    ...containerSeccomp,
    ...validateOs(s.os, `${path}.os`),
    ...validateSeccomp(s.securityContext, `${path}.securityContext`),
    ...validateTolerations(s.tolerations, `${path}.tolerations`),
    ...validateHostAliases(s.hostAliases, `${path}.hostAliases`),
    ...validatePreemptionPolicy(s.preemptionPolicy, `${path}.preemptionPolicy`),
    ...validateNodeAffinity(s.affinity, `${path}.affinity`),
    ...validateTopologySpread(s.topologySpreadConstraints, `${path}.topologySpreadConstraints`),
    ...validateSchedulingGates(s.schedulingGates, `${path}.schedulingGates`),
  ];
}
