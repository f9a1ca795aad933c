// SelfSubjectReview (authentication.<domain>/v1, v1beta1 and v1alpha1), kube-apiserver 1.28's
// pkg/registry/authentication/selfsubjectreview: create-only, nothing stored; the answer is the
// caller's own identity after impersonation (`kubectl auth whoami`). As in 1.28 only v1 is served
// by default: v1beta1 (a beta of 1.27, after beta APIs went off by default) and v1alpha1 wait for
// `--runtime-config`.
import type { UserInfo } from '../../authn/user-info.ts';
import type { ReviewKind } from '../authorization/review-store.ts';
import { builtinFields } from '../schema/builtin-schemas.ts';
import type { ResourceDeclaration } from '../schema/declaration.ts';

function declaration(version: 'v1' | 'v1beta1' | 'v1alpha1'): ResourceDeclaration {
  return {
    group: 'authentication',
    groupQualified: true,
    version,
    kind: 'SelfSubjectReview',
    plural: 'selfsubjectreviews',
    singular: 'selfsubjectreview',
    namespaced: false,
    nameRule: 'path-segment',
    description: 'SelfSubjectReview contains the user information that the kube-apiserver has about the user making this request. When using impersonation, users will receive the user info of the user being impersonated.  If impersonation or request header authentication is used, any extra keys will have their case ignored and returned as lowercase.',
    fields: builtinFields(`io.k8s.api.authentication.${version}.SelfSubjectReview`),
    verbs: ['create'],
    strategy: {},
    ...(version === 'v1' ? {} : { servedByDefault: false }),
  };
}

/** SelfSubjectReviews at authentication.<domain>/v1. */
export const selfsubjectreviews = declaration('v1');
/** SelfSubjectReviews at authentication.<domain>/v1beta1 (same answer; off by default). */
export const selfsubjectreviewsV1beta1 = declaration('v1beta1');
/** SelfSubjectReviews at authentication.<domain>/v1alpha1 (same answer; alpha, off by default). */
export const selfsubjectreviewsV1alpha1 = declaration('v1alpha1');

/** status.userInfo as Go's omitempty writes it: username always, uid, groups and extra when set. */
export function userInfoJson(user: UserInfo): Record<string, unknown> {
  const info: Record<string, unknown> = { username: user.username };
  if (user.uid !== '') info.uid = user.uid;
  if (user.groups.length > 0) info.groups = [...user.groups];
  if (Object.keys(user.extra).length > 0) info.extra = Object.fromEntries(Object.entries(user.extra).map(([k, v]) => [k, [...v]]));
  return info;
}

/** The caller's identity. */
export const selfSubjectReviewKind: ReviewKind = {
  validate: () => [],
  status: (_review, user) => Promise.resolve({ userInfo: userInfoJson(user) }),
};
