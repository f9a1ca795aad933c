// TokenReview (authentication.<domain>/v1; kube 1.28 serves no other version), as kube-apiserver
// 1.28's pkg/registry/authentication/tokenreview: create-only, nothing stored. The token is put
// through the server's bearer-token chain with the review's audiences (default the API audiences)
// and the outcome answered in status. The token is echoed back in spec, as kube does, never logged.
import type { AuthenticationOutcome } from '../../authn/authenticator.ts';
import type { Storage } from '../../storage/storage.ts';
import type { ServiceAccountTokens } from '../core/serviceaccount/service-account-tokens.ts';
import { badRequest, internalError } from '../errors/status-error.ts';
import { cloneObject } from '../generic/codec.ts';
import { GenericStore, type WriteOptions, type WriteResult } from '../generic/store.ts';
import type { ServedResource } from '../served-resource.ts';
import { builtinFields } from '../schema/builtin-schemas.ts';
import type { KObject, ResourceDeclaration } from '../schema/declaration.ts';
import { userInfoJson } from './selfsubjectreviews.ts';

/** TokenReviews at authentication.<domain>/v1. */
export const tokenreviews: ResourceDeclaration = {
  group: 'authentication',
  groupQualified: true,
  version: 'v1',
  kind: 'TokenReview',
  plural: 'tokenreviews',
  singular: 'tokenreview',
  namespaced: false,
  nameRule: 'path-segment',
  description: 'TokenReview attempts to authenticate a token to a known user. Note: TokenReview requests may be cached by the webhook token authenticator plugin in the kube-apiserver.',
  fields: builtinFields('io.k8s.api.authentication.v1.TokenReview'),
  verbs: ['create'],
  strategy: {},
};

/** What the bearer-token authenticator says when no authenticator knows the token (kube's bearertoken). */
const invalidBearerToken = 'invalid bearer token';

/**
 * status.error as kube-apiserver writes it: its loopback token authenticator always adds
 * "invalid bearer token" ahead of the real chain's errors, and errors are de-duplicated and
 * listed in brackets (utilerrors' aggregate). Our union joins `<authenticator>: <reason>` with
 * "; ": the authenticator names are dropped, as kube's errors carry none.
 */
export function reviewError(outcome: Exclude<AuthenticationOutcome, { kind: 'authenticated' }>): string {
  if (outcome.kind === 'no-opinion') return invalidBearerToken;
  const reasons = outcome.reason.split('; ').map((r) => r.replace(/^[a-z0-9-]+: /, ''));
  const distinct = [...new Set([invalidBearerToken, ...reasons])];
  return distinct.length === 1 ? invalidBearerToken : `[${distinct.join(', ')}]`;
}

/** The status of a review of `token` (`requested`: spec.audiences); 500 when the authenticator ignored the audiences. */
export async function tokenReviewStatus(tokens: ServiceAccountTokens | undefined, token: string, requested: readonly string[]): Promise<Record<string, unknown>> {
  const authenticator = tokens?.tokenAuthenticator;
  // A Go TokenReviewStatus with nothing set still writes its (struct) user.
  if (authenticator === undefined) return { user: {} };
  const audiences = requested.length > 0 ? requested : tokens!.apiAudiences;
  const outcome = await authenticator.authenticateToken(token, audiences.length > 0 ? audiences : undefined);
  if (outcome.kind !== 'authenticated') return { user: {}, error: reviewError(outcome) };
  const granted = outcome.audiences ?? [];
  // An authenticator answering for other audiences than asked is a bug: kube refuses to answer.
  if (audiences.length > 0 && !granted.some((a) => audiences.includes(a))) throw internalError('error validating audiences');
  return { authenticated: true, user: userInfoJson(outcome.user), ...(granted.length > 0 ? { audiences: [...granted] } : {}) };
}

/** The store of tokenreviews: a create answers the review; nothing else is served (the declaration's verbs). */
export class TokenReviewStore extends GenericStore {
  constructor(
    storage: Storage,
    served: ServedResource,
    private readonly tokens: ServiceAccountTokens | undefined,
  ) {
    super(storage, served);
  }

  /** 201 with the review and its status; 400 without spec.token. */
  override async create(_namespace: string | undefined, input: KObject, _opts: WriteOptions): Promise<WriteResult> {
    const review = this.withType(cloneObject(input));
    const spec = (review.spec ?? {}) as { token?: string; audiences?: string[] | null };
    if (!spec.token) throw badRequest('token is required for TokenReview in authentication');
    const status = await tokenReviewStatus(this.tokens, spec.token, spec.audiences ?? []);
    // The metadata as sent (Go's JSON would add `creationTimestamp: null`, which Protobuf cannot
    // carry: left out, as the other reviews do).
    const metadata = { ...review.metadata };
    delete metadata.managedFields;
    return { object: { ...review, metadata, status }, warnings: [], created: true };
  }
}
