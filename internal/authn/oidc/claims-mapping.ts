// From verified ID-token claims to a user, as kube 1.28's OIDC authenticator maps them.
import type { UserInfo } from '../user-info.ts';
import type { OidcConfiguration } from './options.ts';

/** The user, or why the claims do not make one (for the log). */
export type ClaimsMapping = { readonly ok: true; readonly user: UserInfo } | { readonly ok: false; readonly reason: string };

function problem(reason: string): ClaimsMapping {
  return { ok: false, reason };
}

function groupsFrom(claims: Readonly<Record<string, unknown>>, config: OidcConfiguration): string[] | string {
  if (config.groupsClaim === '' || !Object.hasOwn(claims, config.groupsClaim)) return [];
  const value = claims[config.groupsClaim];
  // Some providers send a single string ("role"); kube accepts it as one group.
  if (typeof value === 'string') return [config.groupsPrefix + value];
  if (Array.isArray(value) && value.every((g) => typeof g === 'string')) return (value as string[]).map((g) => config.groupsPrefix + g);
  return `oidc: parse groups claim ${JSON.stringify(config.groupsClaim)}`;
}

function requiredClaimsProblem(claims: Readonly<Record<string, unknown>>, config: OidcConfiguration): string | undefined {
  for (const [name, wanted] of Object.entries(config.requiredClaims)) {
    if (!Object.hasOwn(claims, name)) return `oidc: required claim ${name} not present in ID token`;
    // Only string values can be required, as in kube.
    const value = claims[name];
    if (typeof value !== 'string') return `oidc: parse claim ${name}`;
    if (value !== wanted) return `oidc: required claim ${name} value does not match`;
  }
  return undefined;
}

/** Maps verified claims to the user. */
export function userFromClaims(claims: Readonly<Record<string, unknown>>, config: OidcConfiguration): ClaimsMapping {
  if (config.usernameClaim === 'email' && Object.hasOwn(claims, 'email_verified')) {
    const verified = claims['email_verified'];
    if (typeof verified !== 'boolean') return problem("oidc: parse 'email_verified' claim");
    if (!verified) return problem('oidc: email not verified');
  }
  const username = claims[config.usernameClaim];
  if (typeof username !== 'string') return problem(`oidc: parse username claims ${JSON.stringify(config.usernameClaim)}`);
  const groups = groupsFrom(claims, config);
  if (typeof groups === 'string') return problem(groups);
  const required = requiredClaimsProblem(claims, config);
  if (required !== undefined) return problem(required);
  return { ok: true, user: { username: config.usernamePrefix + username, uid: '', groups, extra: {} } };
}
