// The one call the HTTP filter makes: a user, or the 401 StatusError to send.
import type { AuthenticationRequest, RequestAuthenticator } from './authenticator.ts';
import { unauthorized } from './unauthorized.ts';
import type { UserInfo } from './user-info.ts';

/**
 * Runs `authenticator` on `request`. Resolves with the user (and the audiences the credential was
 * valid for); rejects with a 401 StatusError whose message is only `Unauthorized`, after giving
 * the reason to `log` (never a credential).
 */
export async function authenticateRequest(
  authenticator: RequestAuthenticator,
  request: AuthenticationRequest,
  log: (reason: string) => void = () => {},
): Promise<{ readonly user: UserInfo; readonly audiences?: readonly string[] }> {
  const outcome = await authenticator.authenticate(request);
  if (outcome.kind === 'authenticated') return outcome.audiences === undefined ? { user: outcome.user } : { user: outcome.user, audiences: outcome.audiences };
  log(outcome.kind === 'failed' ? outcome.reason : 'no credential and anonymous authentication is off');
  throw unauthorized();
}
