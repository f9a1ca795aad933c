// The replica's authentication flags, as kube-apiserver 1.28 names them
// (pkg/kubeapiserver/options/authentication.go): client certificates, the token file, service
// accounts, bootstrap tokens, OIDC, the token webhook, the authenticating proxy and anonymous requests. Lists take
// Go's StringSlice form: repeat the flag or separate values with commas. Booleans take
// `--flag`, `--flag=true` or `--flag=false`.
import type { AuthenticationOptions, OidcOptions, RequestHeaderOptions, TokenWebhookOptions } from '../authn/index.ts';
import { parseGoBool } from '../apiserver/query-params.ts';
import type { AuthorizationMode } from '../authz/authorization-modes.ts';

/** The authentication flags after validation: the options internal/authn builds its chain from, and the admin token file. */
export interface AuthenticationFlags {
  readonly options: AuthenticationOptions;
  /**
   * --admin-token-file (orch's own): a file holding one token that authenticates as `orch-admin`
   * in `system:masters`, created (mode 0600) when missing. Null when not given.
   */
  readonly adminTokenFile: string | null;
  /** What the flags changed on their own (anonymous turned off by AlwaysAllow), for the log. */
  readonly warnings: readonly string[];
}

/** The boolean flags: `--flag` alone means true (normalizeBooleanFlags rewrites it for parseArgs). */
const booleanFlags = ['anonymous-auth', 'service-account-lookup', 'service-account-extend-token-expiration', 'enable-bootstrap-token-auth'] as const;

/** The parseArgs options of the authentication flags. */
export const authenticationFlagOptions = {
  'admin-token-file': { type: 'string' },
  'anonymous-auth': { type: 'string', default: 'true' },
  'client-ca-file': { type: 'string' },
  'enable-bootstrap-token-auth': { type: 'string', default: 'false' },
  'token-auth-file': { type: 'string' },
  'api-audiences': { type: 'string', multiple: true },
  'service-account-key-file': { type: 'string', multiple: true },
  'service-account-signing-key-file': { type: 'string' },
  'service-account-issuer': { type: 'string', multiple: true },
  'service-account-lookup': { type: 'string', default: 'true' },
  'service-account-max-token-expiration': { type: 'string' },
  'service-account-extend-token-expiration': { type: 'string', default: 'true' },
  'oidc-issuer-url': { type: 'string' },
  'oidc-client-id': { type: 'string' },
  'oidc-username-claim': { type: 'string' },
  'oidc-username-prefix': { type: 'string' },
  'oidc-groups-claim': { type: 'string' },
  'oidc-groups-prefix': { type: 'string' },
  'oidc-required-claim': { type: 'string', multiple: true },
  'oidc-ca-file': { type: 'string' },
  'oidc-signing-algs': { type: 'string', multiple: true },
  'authentication-token-webhook-config-file': { type: 'string' },
  'authentication-token-webhook-cache-ttl': { type: 'string', default: '2m' },
  'authentication-token-webhook-version': { type: 'string', default: 'v1beta1' },
  'requestheader-username-headers': { type: 'string', multiple: true },
  'requestheader-group-headers': { type: 'string', multiple: true },
  'requestheader-extra-headers-prefix': { type: 'string', multiple: true },
  'requestheader-client-ca-file': { type: 'string' },
  'requestheader-allowed-names': { type: 'string', multiple: true },
} as const;

type StringFlag = { [K in keyof typeof authenticationFlagOptions]: (typeof authenticationFlagOptions)[K] extends { multiple: true } ? never : K }[keyof typeof authenticationFlagOptions];
type ListFlag = Exclude<keyof typeof authenticationFlagOptions, StringFlag>;

/** The values parseArgs gives for them. */
export type AuthenticationFlagValues = { readonly [K in StringFlag]?: string | undefined } & { readonly [K in ListFlag]?: string[] | undefined };

/** `argv` with each bare boolean authentication flag (`--anonymous-auth`) written `--anonymous-auth=true`, as Go's flag package reads it. */
export function normalizeBooleanFlags(argv: readonly string[]): string[] {
  return argv.map((arg) => ((booleanFlags as readonly string[]).includes(arg.replace(/^--/, '')) && arg.startsWith('--') ? `${arg}=true` : arg));
}

/** Helpers the parser borrows from parse-flags.ts (one duration syntax, one error type). */
export interface FlagParsing {
  readonly parseDurationMs: (text: string, flag: string) => number;
  readonly makeError: (message: string) => Error;
}

function parseBoolean(text: string | undefined, flag: string, fallback: boolean, parsing: FlagParsing): boolean {
  if (text === undefined) return fallback;
  const value = parseGoBool(text);
  if (value === undefined) throw parsing.makeError(`--${flag}: "${text}" is not true or false`);
  return value;
}

/** Go's StringSlice: every occurrence, each split on commas, blanks trimmed, empty items dropped. */
function list(values: readonly string[] | undefined): string[] {
  return (values ?? []).flatMap((v) => v.split(',')).map((v) => v.trim()).filter((v) => v !== '');
}

function nonEmpty(text: string | undefined): string | undefined {
  return text === undefined || text === '' ? undefined : text;
}

function oidcOptions(values: AuthenticationFlagValues, parsing: FlagParsing): OidcOptions | undefined {
  const issuerUrl = nonEmpty(values['oidc-issuer-url']);
  const clientId = nonEmpty(values['oidc-client-id']);
  if (issuerUrl === undefined && clientId === undefined) return undefined;
  if (issuerUrl === undefined || clientId === undefined) throw parsing.makeError('--oidc-issuer-url and --oidc-client-id must be specified together');
  let url: URL;
  try {
    url = new URL(issuerUrl);
  } catch {
    throw parsing.makeError(`--oidc-issuer-url: "${issuerUrl}" is not a URL`);
  }
  if (url.protocol !== 'https:') throw parsing.makeError(`--oidc-issuer-url: "${issuerUrl}" must use the https scheme`);
  const optional = (flag: 'oidc-username-claim' | 'oidc-username-prefix' | 'oidc-groups-claim' | 'oidc-groups-prefix' | 'oidc-ca-file', key: keyof OidcOptions) => {
    const value = nonEmpty(values[flag]);
    return value === undefined ? {} : { [key]: value };
  };
  const algorithms = list(values['oidc-signing-algs']);
  return {
    issuerUrl,
    clientId,
    ...optional('oidc-username-claim', 'usernameClaim'),
    ...optional('oidc-username-prefix', 'usernamePrefix'),
    ...optional('oidc-groups-claim', 'groupsClaim'),
    ...optional('oidc-groups-prefix', 'groupsPrefix'),
    ...optional('oidc-ca-file', 'caFile'),
    // mapStringString: key=value pairs, comma-separated or repeated.
    requiredClaims: list(values['oidc-required-claim']),
    ...(algorithms.length === 0 ? {} : { signingAlgorithms: algorithms }),
  } as OidcOptions;
}

function tokenWebhookOptions(values: AuthenticationFlagValues, parsing: FlagParsing): TokenWebhookOptions | undefined {
  const version = values['authentication-token-webhook-version'] ?? 'v1beta1';
  if (version !== 'v1' && version !== 'v1beta1') throw parsing.makeError(`--authentication-token-webhook-version: "${version}" is not v1 or v1beta1`);
  const configFile = nonEmpty(values['authentication-token-webhook-config-file']);
  if (configFile === undefined) return undefined;
  const ttlMs = parsing.parseDurationMs(values['authentication-token-webhook-cache-ttl'] ?? '2m', 'authentication-token-webhook-cache-ttl');
  return { configFile, version, cacheTtlSeconds: ttlMs / 1000 };
}

function requestHeaderOptions(values: AuthenticationFlagValues, parsing: FlagParsing): RequestHeaderOptions | undefined {
  const usernameHeaders = list(values['requestheader-username-headers']);
  const clientCaFile = nonEmpty(values['requestheader-client-ca-file']);
  if (clientCaFile === undefined) {
    if (usernameHeaders.length > 0) throw parsing.makeError('--requestheader-username-headers needs --requestheader-client-ca-file: proxy headers are trusted only from a client certificate it signed');
    return undefined;
  }
  return {
    usernameHeaders,
    groupHeaders: list(values['requestheader-group-headers']),
    extraHeadersPrefixes: list(values['requestheader-extra-headers-prefix']),
    clientCaFile,
    allowedNames: list(values['requestheader-allowed-names']),
  };
}

/**
 * Validates the flags into internal/authn's options. --anonymous-auth defaults to true and is
 * turned off (with a warning) when --authorization-mode has AlwaysAllow, as kube-apiserver does.
 * --service-account-key-file defaults to --service-account-signing-key-file (orch has no
 * --tls-private-key-file, kube's default). Throws `parsing.makeError(message)` naming the flag.
 */
export function parseAuthenticationFlags(values: AuthenticationFlagValues, authorizationModes: readonly AuthorizationMode[], parsing: FlagParsing): AuthenticationFlags {
  const warnings: string[] = [];
  let anonymousAuth = parseBoolean(values['anonymous-auth'], 'anonymous-auth', true, parsing);
  if (anonymousAuth && authorizationModes.includes('AlwaysAllow')) {
    warnings.push('--anonymous-auth is not allowed with the AlwaysAllow authorizer: anonymous requests are refused');
    anonymousAuth = false;
  }
  const signingKeyFile = nonEmpty(values['service-account-signing-key-file']);
  const keyFiles = list(values['service-account-key-file']);
  const maxExpiration = nonEmpty(values['service-account-max-token-expiration']);
  const clientCaFile = nonEmpty(values['client-ca-file']);
  const tokenAuthFile = nonEmpty(values['token-auth-file']);
  const oidc = oidcOptions(values, parsing);
  const tokenWebhook = tokenWebhookOptions(values, parsing);
  const requestHeader = requestHeaderOptions(values, parsing);
  const options: AuthenticationOptions = {
    anonymousAuth,
    apiAudiences: list(values['api-audiences']),
    ...(clientCaFile === undefined ? {} : { clientCaFile }),
    ...(tokenAuthFile === undefined ? {} : { tokenAuthFile }),
    serviceAccounts: {
      keyFiles: keyFiles.length === 0 && signingKeyFile !== undefined ? [signingKeyFile] : keyFiles,
      issuers: list(values['service-account-issuer']),
      lookup: parseBoolean(values['service-account-lookup'], 'service-account-lookup', true, parsing),
      extendTokenExpiration: parseBoolean(values['service-account-extend-token-expiration'], 'service-account-extend-token-expiration', true, parsing),
      ...(signingKeyFile === undefined ? {} : { signingKeyFile }),
      ...(maxExpiration === undefined ? {} : { maxTokenExpirationSeconds: parsing.parseDurationMs(maxExpiration, 'service-account-max-token-expiration') / 1000 }),
    },
    ...(oidc === undefined ? {} : { oidc }),
    ...(tokenWebhook === undefined ? {} : { tokenWebhook }),
    ...(requestHeader === undefined ? {} : { requestHeader }),
    ...(parseBoolean(values['enable-bootstrap-token-auth'], 'enable-bootstrap-token-auth', false, parsing) ? { enableBootstrapTokenAuth: true } : {}),
  };
  return { options, adminTokenFile: nonEmpty(values['admin-token-file']) ?? null, warnings };
}
