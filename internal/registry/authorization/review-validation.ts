// Validation of the access reviews' specs, as kube-apiserver 1.28's
// pkg/apis/authorization/validation (ValidateSubjectAccessReviewSpec and friends).
import type { KObject } from '../schema/declaration.ts';
import { invalidValue, type FieldError } from '../schema/field-errors.ts';

type Json = Record<string, unknown>;

function record(v: unknown): Json | undefined {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : undefined;
}

/** The spec of a review as an object ({} when absent). */
export function specOf(o: KObject): Json {
  return record(o.spec) ?? {};
}

// Go's DeepEqual with an empty ObjectMeta: null fields (a client's `creationTimestamp: null`) count as unset.
function metadataSetFields(o: KObject, except: readonly string[]): string[] {
  return Object.entries(o.metadata).filter(([k, v]) => !except.includes(k) && v !== null && v !== undefined && !(Array.isArray(v) && v.length === 0)).map(([k]) => k);
}

/** Exactly one of resourceAttributes and nonResourceAttributes (SelfSubjectAccessReviewSpec's rules). */
export function validateAttributesChoice(spec: Json): FieldError[] {
  const hasResource = record(spec.resourceAttributes) !== undefined;
  const hasNonResource = record(spec.nonResourceAttributes) !== undefined;
  if (hasResource && hasNonResource) return [invalidValue('spec.nonResourceAttributes', spec.nonResourceAttributes, 'cannot be specified in combination with resourceAttributes')];
  if (!hasResource && !hasNonResource) return [invalidValue('spec.resourceAttributes', spec.nonResourceAttributes ?? null, 'exactly one of nonResourceAttributes or resourceAttributes must be specified')];
  return [];
}

/** ValidateSubjectAccessReviewSpec: the attributes choice, and a user or a group to ask about. */
export function validateSubjectAccessReviewSpec(spec: Json): FieldError[] {
  const errors = validateAttributesChoice(spec);
  const user = typeof spec.user === 'string' ? spec.user : '';
  const groups = Array.isArray(spec.groups) ? spec.groups : [];
  if (user === '' && groups.length === 0) errors.push(invalidValue('spec.user', user, 'at least one of user or group must be specified'));
  return errors;
}

/** ValidateSubjectAccessReview: the spec, and metadata left empty. */
export function validateSubjectAccessReview(o: KObject): FieldError[] {
  const errors = validateSubjectAccessReviewSpec(specOf(o));
  if (metadataSetFields(o, ['managedFields']).length > 0) errors.push(invalidValue('metadata', o.metadata, 'must be empty'));
  return errors;
}

/** ValidateLocalSubjectAccessReview: the spec, metadata empty but for the namespace, resource attributes in that namespace. */
export function validateLocalSubjectAccessReview(o: KObject): FieldError[] {
  const spec = specOf(o);
  const errors = validateSubjectAccessReviewSpec(spec);
  if (metadataSetFields(o, ['namespace', 'managedFields']).length > 0) errors.push(invalidValue('metadata', o.metadata, 'must be empty except for namespace'));
  const resource = record(spec.resourceAttributes);
  const namespace = o.metadata.namespace ?? '';
  if (resource !== undefined && (typeof resource.namespace === 'string' ? resource.namespace : '') !== namespace) {
    errors.push(invalidValue('spec.resourceAttributes.namespace', resource.namespace ?? '', 'must match metadata.namespace'));
  }
  if (record(spec.nonResourceAttributes) !== undefined) errors.push(invalidValue('spec.nonResourceAttributes', spec.nonResourceAttributes, 'disallowed on this kind of request'));
  return errors;
}

/** ValidateSelfSubjectAccessReview: the attributes choice, and metadata left empty. */
export function validateSelfSubjectAccessReview(o: KObject): FieldError[] {
  const errors = validateAttributesChoice(specOf(o));
  if (metadataSetFields(o, ['managedFields']).length > 0) errors.push(invalidValue('metadata', o.metadata, 'must be empty'));
  return errors;
}
