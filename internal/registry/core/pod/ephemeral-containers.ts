// Ephemeral containers (pods/ephemeralcontainers), as kube-apiserver 1.28 validates and writes
// them (validateEphemeralContainers and ValidatePodEphemeralContainersUpdate of
// pkg/apis/core/validation/validation.go, podEphemeralContainersStrategy): containers added to a
// running pod for debugging, never removed or changed, with none of the fields that would make
// the pod rely on them (ports, probes, resources, lifecycle).
import type { KObject, SubresourceView } from '../../schema/declaration.ts';
import { cloneObject } from '../../generic/codec.ts';
import { duplicate, forbidden, invalidValue, notFoundValue, required, type FieldError } from '../../schema/field-errors.ts';
import { dns1123Label } from '../../schema/name-validation.ts';
import { field } from '../../schema/printers.ts';
import { stableStringify } from '../../generic/stable-json.ts';
import { validateContainerDetails, volumeNames } from '../container-validation.ts';

type Json = Record<string, unknown>;

const path = 'spec.ephemeralContainers';
const notForEphemeral = 'cannot be set for an Ephemeral Container';

/** Fields an ephemeral container may not set (upstream's allow list says false for them), in Go field order. */
const disallowedFields = ['ports', 'resources', 'resizePolicy', 'restartPolicy', 'livenessProbe', 'readinessProbe', 'startupProbe', 'lifecycle'];

function listAt(o: unknown, at: string): Json[] {
  const list = field(o, at);
  return Array.isArray(list) ? (list.filter((c) => typeof c === 'object' && c !== null) as Json[]) : [];
}

/** Whether a field holds something Go's reflect.IsZero would not call zero (a struct with all fields empty is zero; any slice or pointer set is not). */
function isSet(name: string, value: unknown): boolean {
  if (value === undefined || value === null || value === '') return false;
  if (name === 'resources' && typeof value === 'object' && !Array.isArray(value)) return Object.values(value).some((v) => v !== undefined && v !== null);
  return true;
}

function validateOne(c: Json, at: string, volumes: ReadonlySet<string>): FieldError[] {
  const errors: FieldError[] = [];
  const name = typeof c.name === 'string' ? c.name : '';
  if (name === '') errors.push(required(`${at}.name`));
  else for (const p of dns1123Label(name)) errors.push(invalidValue(`${at}.name`, name, p));
  if (typeof c.image !== 'string' || c.image === '') errors.push(required(`${at}.image`));
  errors.push(...validateContainerDetails(c, at, volumes));
  for (const f of disallowedFields) if (isSet(f, c[f])) errors.push(forbidden(`${at}.${f}`, notForEphemeral));
  listAt(c, 'volumeMounts').forEach((m, i) => {
    if (typeof m.subPath === 'string' && m.subPath !== '') errors.push(forbidden(`${at}.volumeMounts[${i}].subPath`, notForEphemeral));
    if (typeof m.subPathExpr === 'string' && m.subPathExpr !== '') errors.push(forbidden(`${at}.volumeMounts[${i}].subPathExpr`, notForEphemeral));
  });
  return errors;
}

/**
 * validateEphemeralContainers: each one a valid container without the disallowed fields, named
 * uniquely across all of the pod's containers, its targetContainerName one of the pod's regular
 * or init containers.
 */
export function validateEphemeralContainers(pod: KObject): FieldError[] {
  const ephemeral = listAt(pod, path);
  if (ephemeral.length === 0) return [];
  const others = new Set([...listAt(pod, 'spec.containers'), ...listAt(pod, 'spec.initContainers')].map((c) => String(c.name ?? '')));
  const all = new Set(others);
  const volumes = volumeNames(pod.spec);
  const errors: FieldError[] = [];
  ephemeral.forEach((c, i) => {
    const at = `${path}[${i}]`;
    errors.push(...validateOne(c, at, volumes));
    const name = String(c.name ?? '');
    if (all.has(name)) errors.push(duplicate(`${at}.name`, name));
    else all.add(name);
    const target = c.targetContainerName;
    if (typeof target === 'string' && target !== '' && !others.has(target)) errors.push(notFoundValue(`${at}.targetContainerName`, target));
  });
  return errors;
}

/** ValidatePodCreate's rule: a new pod has no ephemeral containers. */
export function validateNoEphemeralContainers(pod: KObject): FieldError[] {
  return listAt(pod, path).length > 0 ? [forbidden(path, 'cannot be set on create')] : [];
}

/** ValidatePodEphemeralContainersUpdate's part 2: existing ephemeral containers are neither removed nor changed. */
function validateUpdate(pod: KObject, old: KObject): FieldError[] {
  if (old.metadata.annotations?.['kubernetes.io/config.mirror'] !== undefined) return [forbidden('', 'static pods do not support ephemeral containers')];
  const byName = new Map(listAt(pod, path).map((c) => [String(c.name ?? ''), c]));
  const errors: FieldError[] = [];
  for (const before of listAt(old, path)) {
    const name = String(before.name ?? '');
    const after = byName.get(name);
    if (after === undefined) errors.push(forbidden(path, `existing ephemeral containers "${name}" may not be removed\n`));
    else if (stableStringify(after) !== stableStringify(before)) errors.push(forbidden(path, `existing ephemeral containers "${name}" may not be changed\n`));
  }
  return errors;
}

/** The pods/ephemeralcontainers view: a write changes only spec.ephemeralContainers. */
export const ephemeralContainersView: SubresourceView = {
  merge(input, old) {
    const next = cloneObject(old);
    const spec = (typeof next.spec === 'object' && next.spec !== null ? next.spec : (next.spec = {})) as Json;
    const wanted = field(input, path);
    if (wanted === undefined || wanted === null) delete spec.ephemeralContainers;
    else spec.ephemeralContainers = cloneObject(wanted);
    if (input.metadata.uid !== undefined) next.metadata.uid = input.metadata.uid;
    return next;
  },
  validateUpdate,
};
