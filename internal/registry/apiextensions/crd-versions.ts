// Reading a CustomResourceDefinition's spec: its versions, the one stored, the served ones, and
// the parts of a version (schema, sub-resources, printer columns), each falling back to the
// spec-wide field kube-apiextensions-apiserver's v1beta1 form allowed.
import type { KObject } from '../schema/declaration.ts';
import { isObject } from './schema/schema-props.ts';

type Json = Record<string, unknown>;

/** The value as a JSON object, or undefined when it is none. */
export function asObject(value: unknown): Json | undefined {
  return isObject(value) ? value : undefined;
}

/** The CRD's spec (an empty object when missing). */
export function crdSpec(crd: KObject): Json {
  return asObject(crd.spec) ?? {};
}

/** The CRD's versions, as objects. */
export function crdVersions(crd: KObject): Json[] {
  const versions = crdSpec(crd).versions;
  return Array.isArray(versions) ? versions.filter((v): v is Json => asObject(v) !== undefined) : [];
}

/** The name of the version marked `storage: true`, or undefined. */
export function storageVersionOf(crd: KObject): string | undefined {
  const storage = crdVersions(crd).find((v) => v.storage === true);
  return typeof storage?.name === 'string' ? storage.name : undefined;
}

/** A CRD's names. */
export interface CrdNames {
  readonly plural: string;
  readonly singular: string;
  readonly kind: string;
  readonly listKind: string;
  readonly shortNames: string[];
  readonly categories: string[];
}

/** The names a CRD is served under: those the naming controller accepted, else (not yet accepted) `spec.names`. */
export function servedNames(crd: KObject): CrdNames {
  const accepted = asObject(asObject(crd.status)?.acceptedNames);
  return accepted !== undefined && typeof accepted.plural === 'string' && accepted.plural !== '' ? namesOf(accepted) : crdNames(crd);
}

/** The names the CRD asks for (`spec.names`), with kube's defaults for singular and listKind. */
export function crdNames(crd: KObject): CrdNames {
  return namesOf(asObject(crdSpec(crd).names) ?? {});
}

function namesOf(names: Json): CrdNames {
  const text = (v: unknown): string => (typeof v === 'string' ? v : '');
  const list = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
  const kind = text(names.kind);
  return { plural: text(names.plural), singular: text(names.singular) || kind.toLowerCase(), kind, listKind: text(names.listKind) || `${kind}List`, shortNames: list(names.shortNames), categories: list(names.categories) };
}

/** The `openAPIV3Schema` of a version, or undefined. */
export function versionSchema(version: Json): Json | undefined {
  return asObject(asObject(version.schema)?.openAPIV3Schema);
}

/** A condition of the CRD's status by type, or undefined. */
export function crdCondition(crd: KObject, type: string): Json | undefined {
  const conditions = asObject(crd.status)?.conditions;
  return Array.isArray(conditions) ? conditions.map(asObject).find((c) => c?.type === type) : undefined;
}

/** Whether the CRD's condition of `type` is True. */
export function crdConditionTrue(crd: KObject, type: string): boolean {
  return crdCondition(crd, type)?.status === 'True';
}
