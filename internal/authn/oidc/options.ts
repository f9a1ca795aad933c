// The --oidc-* flags, checked and defaulted as kube-apiserver 1.28 does.
import { isJwsAlgorithm } from '../jwt/algorithms.ts';
import type { JwsAlgorithm } from '../jwt/algorithms.ts';

/** The --oidc-* flags (values as given; files already read). */
export interface OidcFlags {
  /** --oidc-issuer-url (https). */
  readonly issuerUrl: string;
  /** --oidc-client-id. */
  readonly clientId: string;
  /** --oidc-username-claim (default `sub`). */
  readonly usernameClaim?: string;
  /** --oidc-username-prefix (`-` disables; default `<issuer>#` unless the claim is `email`). */
  readonly usernamePrefix?: string;
  /** --oidc-groups-claim. */
  readonly groupsClaim?: string;
  /** --oidc-groups-prefix. */
  readonly groupsPrefix?: string;
  /** --oidc-required-claim key=value, repeatable. */
  readonly requiredClaims?: Readonly<Record<string, string>>;
  /** --oidc-ca-file's content (PEM); absent: the host's roots. */
  readonly caPem?: string;
  /** --oidc-signing-algs (default RS256). */
  readonly signingAlgorithms?: readonly string[];
}

/** The OIDC configuration after checks and defaults. */
export interface OidcConfiguration {
  readonly issuerUrl: string;
  readonly clientId: string;
  readonly usernameClaim: string;
  readonly usernamePrefix: string;
  readonly groupsClaim: string;
  readonly groupsPrefix: string;
  readonly requiredClaims: Readonly<Record<string, string>>;
  readonly caPem?: string;
  readonly signingAlgorithms: readonly JwsAlgorithm[];
}

/** Checks and defaults the flags; throws with kube's wording for a bad flag. */
export function oidcConfiguration(flags: OidcFlags): OidcConfiguration {
  let url: URL;
  try {
    url = new URL(flags.issuerUrl);
  } catch {
    throw new Error(`oidc-issuer-url (${JSON.stringify(flags.issuerUrl)}) is not a URL`);
  }
  if (url.protocol !== 'https:') throw new Error(`'oidc-issuer-url' (${JSON.stringify(flags.issuerUrl)}) has invalid scheme (${JSON.stringify(url.protocol.replace(/:$/, ''))}), require 'https'`);
  if (flags.clientId === '') throw new Error('oidc-client-id is required with oidc-issuer-url');
  const usernameClaim = flags.usernameClaim ?? 'sub';
  if (usernameClaim === '') throw new Error('oidc-username-claim may not be empty');
  const algorithms = flags.signingAlgorithms === undefined || flags.signingAlgorithms.length === 0 ? ['RS256'] : flags.signingAlgorithms;
  for (const alg of algorithms) if (!isJwsAlgorithm(alg)) throw new Error(`oidc: unsupported signing alg: ${JSON.stringify(alg)}`);
  return {
    issuerUrl: flags.issuerUrl,
    clientId: flags.clientId,
    usernameClaim,
    usernamePrefix: defaultUsernamePrefix(flags.issuerUrl, usernameClaim, flags.usernamePrefix ?? ''),
    groupsClaim: flags.groupsClaim ?? '',
    groupsPrefix: flags.groupsPrefix ?? '',
    requiredClaims: flags.requiredClaims ?? {},
    ...(flags.caPem === undefined ? {} : { caPem: flags.caPem }),
    signingAlgorithms: algorithms as JwsAlgorithm[],
  };
}

/** kube's legacy rule: no prefix given and a claim other than `email` means `<issuer>#`; `-` means none. */
export function defaultUsernamePrefix(issuerUrl: string, usernameClaim: string, given: string): string {
  if (given === '-') return '';
  if (given === '' && usernameClaim !== 'email') return `${issuerUrl}#`;
  return given;
}

/** Parses `key=value` required-claim flags into a map; throws on one without `=`. */
export function parseRequiredClaims(values: readonly string[]): Record<string, string> {
  const claims: Record<string, string> = {};
  for (const value of values) {
    const at = value.indexOf('=');
    if (at < 0) throw new Error(`oidc-required-claim ${JSON.stringify(value)} is not key=value`);
    claims[value.slice(0, at)] = value.slice(at + 1);
  }
  return claims;
}
