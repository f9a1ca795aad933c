// The store of a review kind: create-only, nothing stored, the answer computed from the request (kube
// 1.28's pkg/registry/authorization/*/rest.go and authentication/selfsubjectreview): the created
// object comes back with its status filled in (its metadata as sent: Go's `creationTimestamp: null`
// is left out, as Protobuf carries no null).
import type { UserInfo } from '../../authn/user-info.ts';
import type { Storage } from '../../storage/storage.ts';
import { badRequest, internalError, invalid } from '../errors/status-error.ts';
import { cloneObject } from '../generic/codec.ts';
import { GenericStore, type WriteOptions, type WriteResult } from '../generic/store.ts';
import type { ServedResource } from '../served-resource.ts';
import type { KObject } from '../schema/declaration.ts';
import { toCauses, type FieldError } from '../schema/field-errors.ts';
import type { StoreAuthorization } from './store-authorization.ts';

/** What a review computes: the object's status from the validated review, the caller and the authorization. */
export interface ReviewKind {
  /** Spec validation (field errors answer 422 naming the kind). */
  validate(review: KObject): FieldError[];
  /** The status to answer with. `user` is the request's user (after impersonation). */
  status(review: KObject, user: UserInfo, authorization: StoreAuthorization | undefined): Promise<unknown>;
}

/** The server's authorization, which every access review needs; a server built without one cannot answer (a wiring bug, kube's 500). */
export function requireAuthorization(authorization: StoreAuthorization | undefined): StoreAuthorization {
  if (authorization === undefined) throw internalError('authorization is not configured on this server');
  return authorization;
}

/** The store of one review kind; see ReviewKind. */
export class ReviewStore extends GenericStore {
  constructor(
    storage: Storage,
    served: ServedResource,
    private readonly kind: ReviewKind,
    private readonly authorization: StoreAuthorization | undefined,
  ) {
    super(storage, served);
  }

  /** Answers the review (201 with its status); 422 on an invalid spec, 400 without a requesting user. */
  override async create(namespace: string | undefined, input: KObject, opts: WriteOptions): Promise<WriteResult> {
    const review = this.withType(cloneObject(input));
    if (this.decl.namespaced) review.metadata.namespace = namespace;
    const errors = this.kind.validate(review);
    if (errors.length > 0) throw invalid(this.decl.kind, this.gr.group, '', toCauses(errors));
    // kube's REST reads the user from the request context; only a request without one lacks it.
    if (opts.user === undefined) throw badRequest('no user present on request');
    const status = await this.kind.status(review, opts.user, this.authorization);
    const metadata = { ...review.metadata };
    delete metadata.managedFields;
    return { object: { ...review, metadata, status }, warnings: [], created: true };
  }
}
