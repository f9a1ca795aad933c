// Finalizer names as kube-apiserver 1.28 checks them (validateFinalizerName): a qualified name,
// and one without a `/` prefix must be one of Kubernetes' standard finalizers.
import type { KObject } from '../schema/declaration.ts';
import { invalidValue, type FieldError } from '../schema/field-errors.ts';
import { qualifiedName } from '../schema/name-validation.ts';

/** The finalizers kube-apiserver accepts without a domain prefix. */
const standardFinalizers = ['kubernetes', 'orphan', 'foregroundDeletion'];

/** The problems of one finalizer name at `path`; empty when valid. */
export function validateFinalizerName(value: unknown, path: string): FieldError[] {
  if (typeof value !== 'string') return [invalidValue(path, value, 'must be a string')];
  const errors = qualifiedName(value).map((msg) => invalidValue(path, value, msg));
  if (!value.includes('/') && !standardFinalizers.includes(value)) errors.push(invalidValue(path, value, 'name is neither a standard finalizer name nor is it fully qualified'));
  return errors;
}

/**
 * ValidateNamespace's check of a new namespace's spec.finalizers. kube passes the list's path, not
 * each item's, on create (the finalize sub-resource names the index).
 */
export function validateNamespaceFinalizers(ns: KObject): FieldError[] {
  const finalizers = (ns.spec as { finalizers?: unknown } | undefined)?.finalizers;
  return Array.isArray(finalizers) ? finalizers.flatMap((f) => validateFinalizerName(f, 'spec.finalizers')) : [];
}
