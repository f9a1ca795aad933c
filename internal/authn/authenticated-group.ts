// Adds `system:authenticated` to every authenticated user (kube's AuthenticatedGroupAdder).
import type { RequestAuthenticator } from './authenticator.ts';
import { systemAnonymous, systemAuthenticated, systemUnauthenticated } from './user-info.ts';
import type { UserInfo } from './user-info.ts';

/** `user` with `system:authenticated` added, unless it is anonymous or already has either system group. */
export function withAuthenticatedGroup(user: UserInfo): UserInfo {
  if (user.username === systemAnonymous) return user;
  if (user.groups.some((g) => g === systemAuthenticated || g === systemUnauthenticated)) return user;
  return { ...user, groups: [...user.groups, systemAuthenticated] };
}

/** Wraps `inner` so that each user it authenticates gets `system:authenticated`. */
export function authenticatedGroupAdder(inner: RequestAuthenticator): RequestAuthenticator {
  return {
    name: inner.name,
    async authenticate(request) {
      const outcome = await inner.authenticate(request);
      return outcome.kind === 'authenticated' ? { ...outcome, user: withAuthenticatedGroup(outcome.user) } : outcome;
    },
  };
}
