// The RBAC objects as the authorizer keeps them: bindings and role references read from the stored
// JSON (shapes: internal/registry/rbac/), and kube's words for them in reasons and errors.
import { goQuote } from '../go-format.ts';

/** The annotation that lets reconciliation update a default object; `"false"` protects an edited one. */
export const autoupdateAnnotation = 'rbac.authorization.kubernetes.io/autoupdate';

/** The label every default RBAC object carries (`rbac-defaults`). */
export const bootstrappingLabel = 'kubernetes.io/bootstrapping';

/** A subject of a binding; '' for what the object leaves out. */
export interface Subject {
  readonly kind: string;
  readonly apiGroup: string;
  readonly name: string;
  readonly namespace: string;
}

/** The role a binding grants. */
export interface RoleRef {
  readonly apiGroup: string;
  readonly kind: string;
  readonly name: string;
}

/** A RoleBinding (namespace set) or ClusterRoleBinding (namespace ''). */
export interface Binding {
  readonly name: string;
  readonly namespace: string;
  readonly roleRef: RoleRef;
  readonly subjects: readonly Subject[];
}

const text = (v: unknown): string => (typeof v === 'string' ? v : '');

function record(v: unknown): Record<string, unknown> {
  return typeof v === 'object' && v !== null ? (v as Record<string, unknown>) : {};
}

/** A subject read from JSON. */
export function subjectFromJson(value: unknown): Subject {
  const s = record(value);
  return { kind: text(s.kind), apiGroup: text(s.apiGroup), name: text(s.name), namespace: text(s.namespace) };
}

/** A binding read from a stored RoleBinding or ClusterRoleBinding. */
export function bindingFromJson(object: Record<string, unknown>): Binding {
  const metadata = record(object.metadata);
  const ref = record(object.roleRef);
  const subjects = Array.isArray(object.subjects) ? object.subjects.map(subjectFromJson) : [];
  return { name: text(metadata.name), namespace: text(metadata.namespace), roleRef: { apiGroup: text(ref.apiGroup), kind: text(ref.kind), name: text(ref.name) }, subjects };
}

/** The user name of a service account (`system:serviceaccount:<namespace>:<name>`). */
export const serviceAccountUsernamePrefix = 'system:serviceaccount:';

/** The user name a service account authenticates as. */
export function serviceAccountUsername(namespace: string, name: string): string {
  return `${serviceAccountUsernamePrefix}${namespace}:${name}`;
}

/** The groups every service account of a namespace is in. */
export function serviceAccountGroups(namespace: string): string[] {
  return ['system:serviceaccounts', `system:serviceaccounts:${namespace}`];
}

/**
 * The user name a subject stands for, or null when it names a group or nothing. A service account
 * without a namespace takes the binding's (none in a ClusterRoleBinding: it applies to nobody).
 */
export function subjectUsername(subject: Subject, bindingNamespace: string): string | null {
  if (subject.kind === 'User') return subject.name;
  if (subject.kind !== 'ServiceAccount') return null;
  const namespace = subject.namespace !== '' ? subject.namespace : bindingNamespace;
  return namespace === '' ? null : serviceAccountUsername(namespace, subject.name);
}

/** A subject as kube's describeSubject prints it in an RBAC reason (`User "alice"`, `ServiceAccount "sa/ns"`). */
export function describeSubject(subject: Subject, bindingNamespace: string): string {
  if (subject.kind === 'ServiceAccount') {
    const namespace = subject.namespace !== '' ? subject.namespace : bindingNamespace;
    return `${subject.kind} ${goQuote(`${subject.name}/${namespace}`)}`;
  }
  return `${subject.kind} ${goQuote(subject.name)}`;
}

/** Where a rule came from, as kube's binding describers print it (`ClusterRoleBinding "x" of ClusterRole "y" to Group "z"`). */
export function describeSource(binding: Binding, subject: Subject): string {
  const ref = `${binding.roleRef.kind} ${goQuote(binding.roleRef.name)}`;
  if (binding.namespace === '') return `ClusterRoleBinding ${goQuote(binding.name)} of ${ref} to ${describeSubject(subject, '')}`;
  return `RoleBinding ${goQuote(`${binding.name}/${binding.namespace}`)} of ${ref} to ${describeSubject(subject, binding.namespace)}`;
}
