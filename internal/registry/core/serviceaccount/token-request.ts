// serviceaccounts/{name}/token, as kube-apiserver 1.28's TokenREST
// (pkg/registry/core/serviceaccount/storage/token.go): a create-only sub-resource that answers an
// authentication.k8s.io/v1 TokenRequest with a signed token bound to the ServiceAccount (and to a
// Pod or Secret when the request names one). Nothing is stored; the token itself is never logged.
import { badRequest, conflict, invalid, StatusError } from '../../errors/status-error.ts';
import type { GenericStore } from '../../generic/store.ts';
import { nowTimestamp } from '../../generic/object-lifecycle.ts';
import type { SubresourceReply } from '../../generic/subresource-store.ts';
import type { KObject } from '../../schema/declaration.ts';
import { invalidValue, toCauses, type FieldError } from '../../schema/field-errors.ts';
import type { ServiceAccountTokens } from './service-account-tokens.ts';
import * as limits from '../../../authn/serviceaccount/token-limits.ts';

/** The group of the TokenRequest kind, as kubectl and client-go send it (fixed, like policy's Eviction: not under --api-domain). */
export const tokenRequestGroup = 'authentication.k8s.io';
/** The one apiVersion a TokenRequest body may have. */
export const tokenRequestApiVersion = `${tokenRequestGroup}/v1`;

/** The stores a TokenRequest reads: the ServiceAccount, and the Pod or Secret it binds the token to. */
export interface TokenRequestStores {
  readonly serviceAccounts: GenericStore;
  readonly pods: GenericStore;
  readonly secrets: GenericStore;
}

interface BoundObjectRef {
  kind?: string;
  apiVersion?: string;
  name?: string;
  uid?: string;
}

interface TokenRequestSpec {
  audiences?: string[] | null;
  expirationSeconds?: number | null;
  boundObjectRef?: BoundObjectRef | null;
}

/** ValidateTokenRequest: the lifetime must be at least 10 minutes and at most 2^32 seconds. */
export function validateTokenRequestSpec(spec: { expirationSeconds: number }): FieldError[] {
  const seconds = spec.expirationSeconds;
  const field = 'spec.expirationSeconds';
  if (seconds < limits.tokenExpirationSecondsMin) return [invalidValue(field, seconds, 'may not specify a duration less than 10 minutes')];
  if (seconds > limits.tokenExpirationSecondsMax) return [invalidValue(field, seconds, 'may not specify a duration larger than 2^32 seconds')];
  return [];
}

/** 422 naming the TokenRequest, as kube's `errors.NewInvalid(TokenRequest, name, ...)`. */
function invalidRequest(name: string, errors: readonly FieldError[]): StatusError {
  return invalid('TokenRequest', tokenRequestGroup, name, toCauses(errors));
}

/** Body metadata may repeat the path's name and namespace, never contradict them. */
function checkMetadata(body: KObject, namespace: string, name: string): void {
  const given = body.metadata;
  if (given.name && given.name !== name) throw invalidRequest(name, [invalidValue('metadata.name', given.name, 'must match the service account name if specified')]);
  if (given.namespace && given.namespace !== namespace) {
    throw invalidRequest(name, [invalidValue('metadata.namespace', given.namespace, 'must match the service account namespace if specified')]);
  }
}

/** schema.FromAPIVersionAndKind: the group of `apiVersion` (`v1`: core, `apps/v1`: apps). */
function groupVersionOf(apiVersion: string): { group: string; version: string } {
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? { group: '', version: apiVersion } : { group: apiVersion.slice(0, slash), version: apiVersion.slice(slash + 1) };
}

/**
 * The Pod or Secret the token dies with, read live: 404 when it does not exist, 400 for another
 * kind or a Pod running as another ServiceAccount, 409 when the request's uid is not the object's.
 */
async function resolveBoundObject(stores: TokenRequestStores, namespace: string, serviceAccount: string, ref: BoundObjectRef): Promise<{ kind: 'Pod' | 'Secret'; name: string; uid: string }> {
  const { group, version } = groupVersionOf(ref.apiVersion ?? '');
  const kind = ref.kind ?? '';
  const name = ref.name ?? '';
  if (group !== '' || (kind !== 'Pod' && kind !== 'Secret')) throw badRequest(`cannot bind token to object of type ${group}/${version}, Kind=${kind}`);
  // The stores' get of an empty name would read a collection key; kube's key function refuses it.
  if (name === '') throw badRequest('Name parameter required.');
  const object = await (kind === 'Pod' ? stores.pods : stores.secrets).get(namespace, name);
  if (kind === 'Pod' && (object.spec as { serviceAccountName?: string } | undefined)?.serviceAccountName !== serviceAccount) {
    throw badRequest(`cannot bind token for serviceaccount "${serviceAccount}" to pod running with different serviceaccount name.`);
  }
  const uid = object.metadata.uid ?? '';
  if (ref.uid && ref.uid !== uid) {
    throw conflict({ group, resource: kind }, name, `the UID in the bound object reference (${ref.uid}) does not match the UID in record. The object might have been deleted and then recreated`);
  }
  return { kind, name, uid };
}

/**
 * Answers a TokenRequest for ServiceAccount `name` in `namespace` (201 with status.token and
 * status.expirationTimestamp). Order and errors as kube's TokenREST: body name/namespace (422),
 * the ServiceAccount (404), spec.expirationSeconds (422), the bound object (404/400/409). A
 * lifetime over --service-account-max-token-expiration is shortened with a warning.
 */
export async function requestToken(stores: TokenRequestStores, tokens: ServiceAccountTokens | undefined, target: { namespace: string | undefined; name: string }, body: KObject): Promise<SubresourceReply> {
  const issuer = tokens?.tokenIssuer;
  // kube-apiserver installs serviceaccounts/token only with a signing key: without one there is no route.
  if (issuer === undefined) throw new StatusError(404, 'NotFound', 'the server could not find the requested resource');
  const { name } = target;
  if (target.namespace === undefined) throw badRequest('namespace is required');
  const namespace = target.namespace;
  checkMetadata(body, namespace, name);
  const account = await stores.serviceAccounts.get(namespace, name);
  const given = (body.spec ?? {}) as TokenRequestSpec;
  const audiences = given.audiences && given.audiences.length > 0 ? [...given.audiences] : [...tokens!.apiAudiences];
  // v1 defaulting (SetDefaults_TokenRequestSpec) happens at decode, before anything else.
  const requestedSeconds = given.expirationSeconds ?? limits.tokenExpirationSecondsDefault;
  const now = new Date();
  const errors = validateTokenRequestSpec({ expirationSeconds: requestedSeconds });
  if (errors.length > 0) throw invalidRequest('', errors);
  const bound = given.boundObjectRef ? await resolveBoundObject(stores, namespace, name, given.boundObjectRef) : undefined;
  const issued = issuer.issueBoundToken({
    namespace,
    serviceAccountName: name,
    serviceAccountUid: account.metadata.uid ?? '',
    audiences,
    expirationSeconds: requestedSeconds,
    ...(bound === undefined ? {} : { boundObject: bound }),
  });
  // An extended token (a projected volume's 3607 s) reports the lifetime asked for, as kube does:
  // the extension is the token's own business (its warnafter claim), not the client's.
  const reportedSeconds = issued.specExpirationSeconds;
  const warnings = reportedSeconds < requestedSeconds ? [`requested expiration of ${requestedSeconds} seconds shortened to ${reportedSeconds} seconds`] : [];
  const expiresAt = new Date(issued.expirationTimestamp.getTime() - (issued.expirationSeconds - reportedSeconds) * 1000);
  const object = {
    kind: 'TokenRequest',
    apiVersion: tokenRequestApiVersion,
    metadata: { ...body.metadata, name, namespace, creationTimestamp: nowTimestamp(now) },
    spec: { ...given, audiences: [...issued.audiences], expirationSeconds: reportedSeconds },
    status: { token: issued.token, expirationTimestamp: nowTimestamp(expiresAt) },
  };
  return { code: 201, object, warnings };
}
