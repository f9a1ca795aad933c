// Every authentication flag of kube-apiserver that orch has, as one typed object. Parsing the
// command line into it is the wiring's job; `buildAuthenticator` turns it into authenticators.
import type { UserInfo } from './user-info.ts';
import type { TokenReviewVersion } from './webhook/token-review.ts';

/** A bearer token and its user, as a token-file line gives them. */
export interface StaticToken {
  readonly token: string;
  readonly user: UserInfo;
}

/** --service-account-* flags. */
export interface ServiceAccountOptions {
  /** --service-account-key-file, repeatable: PEM RSA/ECDSA keys that verify tokens (default: --tls-private-key-file, the wiring's choice). */
  readonly keyFiles: readonly string[];
  /** --service-account-issuer, repeatable: the first is written into new tokens, all are accepted. */
  readonly issuers: readonly string[];
  /** --service-account-lookup (default true): a legacy token is refused once its Secret or ServiceAccount is gone. */
  readonly lookup: boolean;
  /** --service-account-signing-key-file: the private key TokenRequest signs with. */
  readonly signingKeyFile?: string;
  /** --service-account-max-token-expiration in seconds (0: no cap). */
  readonly maxTokenExpirationSeconds?: number;
  /** --service-account-extend-token-expiration (default true). */
  readonly extendTokenExpiration: boolean;
}

/** --oidc-* flags. */
export interface OidcOptions {
  /** --oidc-issuer-url */
  readonly issuerUrl: string;
  /** --oidc-client-id */
  readonly clientId: string;
  /** --oidc-username-claim (default sub) */
  readonly usernameClaim?: string;
  /** --oidc-username-prefix */
  readonly usernamePrefix?: string;
  /** --oidc-groups-claim */
  readonly groupsClaim?: string;
  /** --oidc-groups-prefix */
  readonly groupsPrefix?: string;
  /** --oidc-required-claim key=value, repeatable */
  readonly requiredClaims?: readonly string[];
  /** --oidc-ca-file */
  readonly caFile?: string;
  /** --oidc-signing-algs (default RS256) */
  readonly signingAlgorithms?: readonly string[];
}

/** --authentication-token-webhook-* flags. */
export interface TokenWebhookOptions {
  /** --authentication-token-webhook-config-file (kubeconfig format) */
  readonly configFile: string;
  /** --authentication-token-webhook-version (default v1beta1) */
  readonly version: TokenReviewVersion;
  /** --authentication-token-webhook-cache-ttl in seconds (default 120) */
  readonly cacheTtlSeconds: number;
}

/** --requestheader-* flags. */
export interface RequestHeaderOptions {
  /** --requestheader-username-headers (required to enable the proxy authenticator) */
  readonly usernameHeaders: readonly string[];
  /** --requestheader-group-headers */
  readonly groupHeaders: readonly string[];
  /** --requestheader-extra-headers-prefix */
  readonly extraHeadersPrefixes: readonly string[];
  /** --requestheader-client-ca-file (required) */
  readonly clientCaFile: string;
  /** --requestheader-allowed-names (empty: any CN) */
  readonly allowedNames: readonly string[];
}

/** All authentication flags. */
export interface AuthenticationOptions {
  /** --anonymous-auth: kube defaults it to true, except that the wiring turns it off with --authorization-mode=AlwaysAllow. */
  readonly anonymousAuth: boolean;
  /** --client-ca-file */
  readonly clientCaFile?: string;
  /** --token-auth-file */
  readonly tokenAuthFile?: string;
  /**
   * Token-file entries held in memory, not read from a file: orch's --admin-token-file (one
   * token of `orch-admin` in `system:masters`) and test servers. They join --token-auth-file's
   * entries (on a duplicate token, the file's entry wins, with a warning).
   */
  readonly staticTokens?: readonly StaticToken[];
  /** --api-audiences (default: the first --service-account-issuer) */
  readonly apiAudiences: readonly string[];
  readonly serviceAccounts: ServiceAccountOptions;
  readonly oidc?: OidcOptions;
  readonly tokenWebhook?: TokenWebhookOptions;
  readonly requestHeader?: RequestHeaderOptions;
  /** How long a bearer token's success is cached (no flag; kube-apiserver's built-in 10 s). A revoked token may work this much longer. */
  readonly tokenSuccessCacheTtlSeconds?: number;
  /** How long a bearer token's failure is cached (no flag; kube-apiserver's built-in 0). */
  readonly tokenFailureCacheTtlSeconds?: number;
  /**
   * --enable-bootstrap-token-auth (default false): bearer tokens `<id>.<secret>` backed by Secrets
   * `bootstrap-token-<id>` in kube-system or orch-system (kube-system's wins when both hold one).
   */
  readonly enableBootstrapTokenAuth?: boolean;
}

/** kube-apiserver's built-in token cache TTLs (no flags): successes 10 s, failures not cached. */
export const defaultTokenSuccessCacheTtlSeconds = 10;
export const defaultTokenFailureCacheTtlSeconds = 0;

/** kube-apiserver's defaults: anonymous on, service-account lookup on, extended expiration on, nothing else. */
export function defaultAuthenticationOptions(): AuthenticationOptions {
  return {
    anonymousAuth: true,
    apiAudiences: [],
    serviceAccounts: { keyFiles: [], issuers: [], lookup: true, extendTokenExpiration: true },
  };
}

/** The audiences tokens must be for: --api-audiences, else the first --service-account-issuer, else none. */
export function effectiveApiAudiences(options: AuthenticationOptions): string[] {
  if (options.apiAudiences.length > 0) return [...options.apiAudiences];
  const first = options.serviceAccounts.issuers[0];
  return first === undefined ? [] : [first];
}
