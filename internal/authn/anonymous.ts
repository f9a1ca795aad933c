// --anonymous-auth: a request nobody else had an opinion on is `system:anonymous`.
import { authenticated } from './authenticator.ts';
import type { RequestAuthenticator } from './authenticator.ts';
import { systemAnonymous, systemUnauthenticated } from './user-info.ts';
import type { UserInfo } from './user-info.ts';

/** The anonymous user: `system:anonymous` in `system:unauthenticated`, no uid, no extra. */
export const anonymousUser: UserInfo = { username: systemAnonymous, uid: '', groups: [systemUnauthenticated], extra: {} };

/** Authenticates every request as the anonymous user; put it last, behind `withFallback`. */
export function anonymousAuthenticator(): RequestAuthenticator {
  return { name: 'anonymous', authenticate: () => Promise.resolve(authenticated(anonymousUser)) };
}
