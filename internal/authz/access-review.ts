// The evaluation of SubjectAccessReview, LocalSubjectAccessReview and SelfSubjectAccessReview, as
// kube-apiserver 1.28's authorization registry (pkg/registry/authorization/util.AuthorizationAttributesFrom
// and the REST Create of each): the spec becomes attributes, the chain decides, the status says so.
// Validating the spec (one of resourceAttributes / nonResourceAttributes, a user or a group, the
// namespace of a local review) is the registry's job.
import type { UserInfo } from '../authn/user-info.ts';
import type { Attributes, Authorizer } from './authorizer.ts';

type Json = Record<string, unknown>;

const text = (v: unknown): string => (typeof v === 'string' ? v : '');

function record(v: unknown): Json | undefined {
  return typeof v === 'object' && v !== null ? (v as Json) : undefined;
}

/** The user a SubjectAccessReview spec describes (`groups` in v1, `group` in v1beta1). */
export function userFromReviewSpec(spec: Json): UserInfo {
  const groups = Array.isArray(spec.groups) ? spec.groups : Array.isArray(spec.group) ? spec.group : [];
  const extra: Record<string, string[]> = {};
  for (const [k, v] of Object.entries(record(spec.extra) ?? {})) extra[k] = Array.isArray(v) ? v.map(String) : [];
  return { username: text(spec.user), uid: text(spec.uid), groups: groups.map(String), extra };
}

/**
 * The attributes a review asks about for `user` (the spec's for SubjectAccessReview, the caller for
 * SelfSubjectAccessReview). An empty resource version means all versions (`*`), as kube.
 */
export function attributesFromReviewSpec(user: UserInfo, spec: Json): Attributes {
  const r = record(spec.resourceAttributes);
  if (r !== undefined) {
    const version = text(r.version);
    return { user, verb: text(r.verb), resourceRequest: true, namespace: text(r.namespace), apiGroup: text(r.group), apiVersion: version === '' ? '*' : version, resource: text(r.resource), subresource: text(r.subresource), name: text(r.name), path: '' };
  }
  const n = record(spec.nonResourceAttributes) ?? {};
  return { user, verb: text(n.verb), resourceRequest: false, namespace: '', apiGroup: '', apiVersion: '', resource: '', subresource: '', name: '', path: text(n.path) };
}

/** SubjectAccessReviewStatus as JSON: `allowed` always, `denied`, `reason` and `evaluationError` when set. */
export interface SubjectAccessReviewStatus {
  allowed: boolean;
  denied?: boolean;
  reason?: string;
  evaluationError?: string;
}

/** Asks the authorizer chain and answers as the review's status. */
export async function accessReviewStatus(authorizer: Authorizer, attributes: Attributes): Promise<SubjectAccessReviewStatus> {
  const answer = await authorizer.authorize(attributes);
  const status: SubjectAccessReviewStatus = { allowed: answer.decision === 'allow' };
  if (answer.decision === 'deny') status.denied = true;
  if (answer.reason !== '') status.reason = answer.reason;
  if (answer.error !== undefined) status.evaluationError = answer.error.message;
  return status;
}
