// Typed reads of the pod and ServiceAccount fields the ServiceAccount plugin works on. Objects are
// user JSON that validation has not seen yet, so every read tolerates a wrong shape.
import type { KObject } from '../../../registry/schema/declaration.ts';

/** A JSON object's fields. */
export type Fields = Record<string, unknown>;

/** `value` when it is a JSON object. */
export function fieldsOf(value: unknown): Fields | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Fields) : undefined;
}

/** The JSON objects of an array field (others skipped). */
export function objectsOf(value: unknown): Fields[] {
  return Array.isArray(value) ? value.map(fieldsOf).filter((f): f is Fields => f !== undefined) : [];
}

/** A string field, '' when absent. */
export function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** The pod's spec (an empty object, not stored, when absent). */
export function specOf(pod: KObject): Fields {
  return fieldsOf(pod.spec) ?? {};
}

/** The names in a list of LocalObjectReferences (`secrets`, `imagePullSecrets`). */
export function referencedNames(value: unknown): Set<string> {
  return new Set(objectsOf(value).map((ref) => text(ref.name)));
}

/** The annotation kube's kubelet sets on mirror pods (pods of static manifests). */
export const mirrorPodAnnotation = 'kubernetes.io/config.mirror';

/** Whether the pod is a mirror pod. */
export function isMirrorPod(pod: KObject): boolean {
  return pod.metadata.annotations?.[mirrorPodAnnotation] !== undefined;
}
