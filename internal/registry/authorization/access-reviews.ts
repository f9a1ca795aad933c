// The authorization.<domain>/v1 review kinds (kube-apiserver 1.28 pkg/registry/authorization):
// SubjectAccessReview, LocalSubjectAccessReview, SelfSubjectAccessReview, SelfSubjectRulesReview.
// Each is create-only and stores nothing: its store (ReviewStore) answers from the authorizer chain.
import { accessReviewStatus, attributesFromReviewSpec, userFromReviewSpec } from '../../authz/access-review.ts';
import { subjectRulesReviewStatus } from '../../authz/rules-review.ts';
import { badRequest } from '../errors/status-error.ts';
import { builtinFields, builtinRequired } from '../schema/builtin-schemas.ts';
import type { ResourceDeclaration } from '../schema/declaration.ts';
import { requireAuthorization, type ReviewKind } from './review-store.ts';
import { specOf, validateLocalSubjectAccessReview, validateSelfSubjectAccessReview, validateSubjectAccessReview } from './review-validation.ts';

function reviewDeclaration(kind: string, plural: string, namespaced: boolean, description: string): ResourceDeclaration {
  const definition = `io.k8s.api.authorization.v1.${kind}`;
  return {
    group: 'authorization',
    groupQualified: true,
    version: 'v1',
    kind,
    plural,
    singular: kind.toLowerCase(),
    namespaced,
    nameRule: 'path-segment',
    description,
    fields: builtinFields(definition),
    required: builtinRequired(definition),
    verbs: ['create'],
    // Nothing is stored: a review in a namespace that does not exist (yet) is still answered, as kube's.
    ...(namespaced ? { ignoresNamespaceLifecycle: true } : {}),
    strategy: {},
  };
}

/** SubjectAccessReviews: may this user (spec.user/groups) do this? */
export const subjectaccessreviews = reviewDeclaration('SubjectAccessReview', 'subjectaccessreviews', false, 'SubjectAccessReview checks whether or not a user or group can perform an action.');
/** LocalSubjectAccessReviews: the same, within the namespace of the request. */
export const localsubjectaccessreviews = reviewDeclaration('LocalSubjectAccessReview', 'localsubjectaccessreviews', true, 'LocalSubjectAccessReview checks whether or not a user or group can perform an action in a given namespace. Having a namespace scoped resource makes it much easier to grant namespace scoped policy that includes permissions checking.');
/** SelfSubjectAccessReviews: may I do this? (`kubectl auth can-i`). */
export const selfsubjectaccessreviews = reviewDeclaration('SelfSubjectAccessReview', 'selfsubjectaccessreviews', false, 'SelfSubjectAccessReview checks whether or the current user can perform an action.  Not filling in a spec.namespace means "in all namespaces".  Self is a special case, because users should always be able to check whether they can perform an action');
/** SelfSubjectRulesReviews: what may I do in a namespace? (`kubectl auth can-i --list`). */
export const selfsubjectrulesreviews = reviewDeclaration('SelfSubjectRulesReview', 'selfsubjectrulesreviews', false, 'SelfSubjectRulesReview enumerates the set of actions the current user can perform within a namespace. The returned list of actions may be incomplete depending on the server\'s authorization mode, and any errors experienced during the evaluation. SelfSubjectRulesReview should be used by UIs to show/hide actions, or to quickly let an end user reason about their permissions. It should NOT Be used by external systems to drive authorization decisions as this raises confused deputy, cache lifetime/revocation, and correctness concerns. SubjectAccessReview, and LocalAccessReview are the correct way to defer authorization decisions to the API server.');

/** SubjectAccessReview: the spec's user asked of the chain. */
export const subjectAccessReviewKind: ReviewKind = {
  validate: validateSubjectAccessReview,
  status: (review, _user, authorization) => {
    const spec = specOf(review);
    return accessReviewStatus(requireAuthorization(authorization).authorizer, attributesFromReviewSpec(userFromReviewSpec(spec), spec));
  },
};

/** LocalSubjectAccessReview: as SubjectAccessReview; the namespace checks are validation's. */
export const localSubjectAccessReviewKind: ReviewKind = {
  validate: validateLocalSubjectAccessReview,
  status: async (review, user, authorization) => {
    if ((review.metadata.namespace ?? '') === '') throw badRequest('namespace is required on this type: ');
    return subjectAccessReviewKind.status(review, user, authorization);
  },
};

/** SelfSubjectAccessReview: the caller asked of the chain. */
export const selfSubjectAccessReviewKind: ReviewKind = {
  validate: validateSelfSubjectAccessReview,
  status: (review, user, authorization) => accessReviewStatus(requireAuthorization(authorization).authorizer, attributesFromReviewSpec(user, specOf(review))),
};

/** SelfSubjectRulesReview: the caller's rules in spec.namespace, which is required. */
export const selfSubjectRulesReviewKind: ReviewKind = {
  validate: () => [],
  status: async (review, user, authorization) => {
    const namespace = specOf(review).namespace;
    if (typeof namespace !== 'string' || namespace === '') throw badRequest('no namespace on request');
    return subjectRulesReviewStatus(requireAuthorization(authorization).ruleResolver, user, namespace);
  },
};
