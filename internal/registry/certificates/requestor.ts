// Who asked for a certificate is the request's user, never what the body claims: kube-apiserver's
// PrepareForCreate for CertificateSigningRequests sets spec.username, uid, groups and extra from
// the authenticated user, so validating admission and the approver see the real requester.
import type { KObject } from '../schema/declaration.ts';
import type { UserInfo } from '../../authn/user-info.ts';

/** Replaces the requestor fields of `obj`'s spec with `user`'s; a write of the server's own (no user) keeps them as given. */
export function fillRequestor(obj: KObject, user: UserInfo | undefined): void {
  if (user === undefined) return;
  if (typeof obj.spec !== 'object' || obj.spec === null || Array.isArray(obj.spec)) obj.spec = {};
  const spec = obj.spec as Record<string, unknown>;
  for (const f of ['username', 'uid', 'groups', 'extra']) delete spec[f];
  // Empty values are omitted, as Go's omitempty leaves them out of the stored JSON.
  if (user.username !== '') spec.username = user.username;
  if (user.uid !== '') spec.uid = user.uid;
  if (user.groups.length > 0) spec.groups = [...user.groups];
  if (Object.keys(user.extra).length > 0) spec.extra = Object.fromEntries(Object.entries(user.extra).map(([k, v]) => [k, [...v]]));
}
