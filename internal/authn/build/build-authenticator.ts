// Turns the flags into the authenticator chain in kube-apiserver's order: authenticating proxy,
// client certificates, bearer tokens in the Authorization header or a WebSocket subprotocol (token
// file, legacy and bound service accounts, bootstrap tokens, OIDC, webhook), then `system:authenticated` added, then anonymous for requests nobody had an opinion on.
import type { X509Certificate } from 'node:crypto';
import * as path from 'node:path';
import { anonymousAuthenticator } from '../anonymous.ts';
import { audienceAgnosticToken } from '../audience-agnostic.ts';
import { authenticatedGroupAdder, withAuthenticatedGroup } from '../authenticated-group.ts';
import type { RequestAuthenticator, RequestHeaders, TokenAuthenticator } from '../authenticator.ts';
import { bearerTokenAuthenticator } from '../bearertoken/bearer-token.ts';
import { bootstrapTokenAuthenticator, type BootstrapTokenSecretGetter } from '../bootstrap/token-authenticator.ts';
import { sendOutboundRequest } from '../https-client.ts';
import type { OutboundRequest, OutboundResponse } from '../https-client.ts';
import { OidcAuthenticator } from '../oidc/oidc-authenticator.ts';
import { oidcConfiguration, parseRequiredClaims } from '../oidc/options.ts';
import { defaultTokenFailureCacheTtlSeconds, defaultTokenSuccessCacheTtlSeconds, effectiveApiAudiences } from '../options.ts';
import type { AuthenticationOptions, OidcOptions } from '../options.ts';
import { readConfigurationFile } from './read-configuration-file.ts';
import { requestHeaderAuthenticator, requestHeaderIdentityHeadersIn } from '../requestheader/request-header.ts';
import type { RequestHeaderNames } from '../requestheader/request-header.ts';
import { buildServiceAccountAuthentication } from './service-account-authenticators.ts';
import type { ServiceAccountObjectGetter } from '../serviceaccount/object-getter.ts';
import type { TokenIssuer } from '../serviceaccount/token-issuer.ts';
import { cachedTokenAuthenticator } from '../token-cache.ts';
import { parseTokenFile, tokenFileAuthenticator, withStaticTokens } from '../tokenfile/token-file.ts';
import { requestAuthenticatorUnion, tokenAuthenticatorUnion, withFallback } from '../union.ts';
import { webhookEndpointFromKubeconfig } from '../webhook/kubeconfig.ts';
import { webSocketProtocolAuthenticator } from '../bearertoken/websocket-protocol.ts';
import { webhookTokenAuthenticator } from '../webhook/webhook-authenticator.ts';
import { parseCertificateBundle } from '../x509/certificate-bundle.ts';
import { clientCertificateAuthenticator } from '../x509/client-certificate.ts';

/** What the chain needs from the server; every field has a default but the object getter. */
export interface AuthenticationDependencies {
  /** Reads ServiceAccounts, Pods and Secrets; required with --service-account-issuer or --service-account-lookup and key files. */
  readonly serviceAccountGetter?: ServiceAccountObjectGetter;
  /** Reads bootstrap token Secrets; required with --enable-bootstrap-token-auth. */
  readonly bootstrapTokenGetter?: BootstrapTokenSecretGetter;
  /** Milliseconds since the epoch (default Date.now). */
  readonly clock?: () => number;
  /** Outbound HTTPS (default node:https). */
  readonly send?: (request: OutboundRequest) => Promise<OutboundResponse>;
  /** Waits between webhook retries (default setTimeout). */
  readonly sleep?: (ms: number) => Promise<void>;
  /** Told of each accepted secret-based token's Secret (for the legacy-token-last-used label). */
  readonly onLegacyTokenUsed?: (namespace: string, secretName: string) => void;
  /** Warnings at build and run time (token-file duplicates, OIDC discovery failures); never carries a credential. */
  readonly warn?: (message: string) => void;
}

/** The built authentication: what the HTTP filter, TokenReview and TokenRequest use. */
export interface Authentication {
  /** The whole chain: answers authenticated (with system:authenticated, or anonymous) or failed (401). */
  readonly requestAuthenticator: RequestAuthenticator;
  /** The bearer-token chain alone, users with system:authenticated (for TokenReview); undefined when no token method is on. */
  readonly tokenAuthenticator?: TokenAuthenticator;
  /** Mints service-account tokens (TokenRequest); undefined without --service-account-signing-key-file. */
  readonly tokenIssuer?: TokenIssuer;
  /** The audiences the server accepts (pass them in each AuthenticationRequest). */
  readonly apiAudiences: readonly string[];
  /**
   * PEM of every CA a client certificate may chain to (--requestheader-client-ca-file and
   * --client-ca-file): the TLS server's `ca`, so its certificate request names them. The TLS layer
   * must not decide (`requestCert: true, rejectUnauthorized: false`); each authenticator verifies.
   */
  readonly clientCertificateAuthorities: readonly string[];
  /** The header names (lowercase) in `headers` to delete before anything downstream reads the request. */
  identityHeadersToStrip(headers: RequestHeaders): string[];
  /** Starts background work (OIDC discovery); resolves when the first attempt is over. */
  start(): Promise<void>;
  /** Stops background work. */
  close(): void;
}

interface Context {
  readonly options: AuthenticationOptions;
  readonly deps: Required<Omit<AuthenticationDependencies, 'serviceAccountGetter' | 'onLegacyTokenUsed' | 'bootstrapTokenGetter'>> &
    Pick<AuthenticationDependencies, 'serviceAccountGetter' | 'onLegacyTokenUsed' | 'bootstrapTokenGetter'>;
  readonly apiAudiences: readonly string[];
}

async function buildOidc(oidc: OidcOptions, context: Context): Promise<OidcAuthenticator> {
  const caPem = oidc.caFile === undefined ? undefined : await readConfigurationFile(oidc.caFile, '--oidc-ca-file');
  if (caPem !== undefined) parseCertificateBundle(caPem, '--oidc-ca-file');
  const config = oidcConfiguration({
    ...oidc,
    requiredClaims: parseRequiredClaims(oidc.requiredClaims ?? []),
    ...(caPem === undefined ? {} : { caPem }),
  });
  const { clock, send, warn } = context.deps;
  return new OidcAuthenticator(config, { clock, send, onDiscoveryError: (e) => warn(`oidc authenticator: initializing plugin: ${e instanceof Error ? e.message : String(e)}`) });
}

async function buildTokenAuthenticators(context: Context): Promise<{ tokens: TokenAuthenticator[]; issuer?: TokenIssuer; oidc?: OidcAuthenticator }> {
  const { options, deps, apiAudiences } = context;
  const tokens: TokenAuthenticator[] = [];
  if (options.tokenAuthFile !== undefined || (options.staticTokens ?? []).length > 0) {
    const path = options.tokenAuthFile;
    const parsed = path === undefined ? { usersByTokenHash: new Map(), warnings: [] } : parseTokenFile(await readConfigurationFile(path, '--token-auth-file'), path);
    const file = withStaticTokens(parsed, options.staticTokens ?? []);
    for (const w of file.warnings) deps.warn(`${w.message} in token file '${path ?? ''}' at line ${w.line}`);
    tokens.push(audienceAgnosticToken(tokenFileAuthenticator(file), apiAudiences));
  }
  const serviceAccounts = await buildServiceAccountAuthentication(options.serviceAccounts, apiAudiences, deps.serviceAccountGetter, deps.clock, deps.onLegacyTokenUsed);
  tokens.push(...serviceAccounts.tokenAuthenticators);
  if (options.enableBootstrapTokenAuth === true) {
    if (deps.bootstrapTokenGetter === undefined) throw new Error('assert: --enable-bootstrap-token-auth needs a bootstrap token Secret getter');
    tokens.push(audienceAgnosticToken(bootstrapTokenAuthenticator({ getter: deps.bootstrapTokenGetter, clock: deps.clock }), apiAudiences));
  }
  const oidc = options.oidc === undefined ? undefined : await buildOidc(options.oidc, context);
  if (oidc !== undefined) tokens.push(audienceAgnosticToken(oidc, apiAudiences));
  if (options.tokenWebhook !== undefined) {
    const file = options.tokenWebhook.configFile;
    const endpoint = webhookEndpointFromKubeconfig(await readConfigurationFile(file, '--authentication-token-webhook-config-file'), path.dirname(file));
    const { clock, send, sleep } = deps;
    tokens.push(webhookTokenAuthenticator({ endpoint, version: options.tokenWebhook.version, cacheTtlMs: options.tokenWebhook.cacheTtlSeconds * 1000, implicitAudiences: apiAudiences, clock, send, sleep }));
  }
  return { tokens, ...(serviceAccounts.tokenIssuer === undefined ? {} : { issuer: serviceAccounts.tokenIssuer }), ...(oidc === undefined ? {} : { oidc }) };
}

async function buildRequestAuthenticators(
  context: Context,
): Promise<{ members: RequestAuthenticator[]; headerNames?: RequestHeaderNames; certificateAuthorities: string[] }> {
  const { options, deps } = context;
  const members: RequestAuthenticator[] = [];
  let headerNames: RequestHeaderNames | undefined;
  let proxyRoots: X509Certificate[] = [];
  let clientRoots: X509Certificate[] = [];
  const proxy = options.requestHeader;
  if (proxy !== undefined && proxy.usernameHeaders.some((h) => h.trim() !== '')) {
    const roots = parseCertificateBundle(await readConfigurationFile(proxy.clientCaFile, '--requestheader-client-ca-file'), proxy.clientCaFile);
    proxyRoots = roots;
    // Names are trimmed and empty ones dropped, as kube's trimHeaders does.
    const clean = (names: readonly string[]) => names.map((h) => h.trim()).filter((h) => h !== '');
    headerNames = { usernameHeaders: clean(proxy.usernameHeaders), groupHeaders: clean(proxy.groupHeaders), extraHeaderPrefixes: clean(proxy.extraHeadersPrefixes) };
    members.push(requestHeaderAuthenticator({ ...headerNames, roots, allowedNames: proxy.allowedNames, clock: deps.clock }));
  }
  if (options.clientCaFile !== undefined) {
    const roots = parseCertificateBundle(await readConfigurationFile(options.clientCaFile, '--client-ca-file'), options.clientCaFile);
    if (proxy !== undefined && headerNames !== undefined && proxy.allowedNames.length === 0 && sharesCertificate(roots, proxyRoots)) {
      // Then every client-certificate user could name any user in the proxy headers.
      deps.warn('--requestheader-client-ca-file shares a CA with --client-ca-file and --requestheader-allowed-names is empty: any client certificate may act as the proxy');
    }
    clientRoots = roots;
    members.push(clientCertificateAuthenticator({ roots, clock: deps.clock }));
  }
  const certificateAuthorities = [...proxyRoots, ...clientRoots].map((c) => c.toString());
  return { members, ...(headerNames === undefined ? {} : { headerNames }), certificateAuthorities };
}

/** Builds the chain; reads every file now, so a bad flag fails the start, never a request. */
export async function buildAuthenticator(options: AuthenticationOptions, dependencies: AuthenticationDependencies = {}): Promise<Authentication> {
  const deps = {
    clock: dependencies.clock ?? Date.now,
    send: dependencies.send ?? sendOutboundRequest,
    sleep: dependencies.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))),
    warn: dependencies.warn ?? (() => {}),
    ...(dependencies.serviceAccountGetter === undefined ? {} : { serviceAccountGetter: dependencies.serviceAccountGetter }),
    ...(dependencies.onLegacyTokenUsed === undefined ? {} : { onLegacyTokenUsed: dependencies.onLegacyTokenUsed }),
    ...(dependencies.bootstrapTokenGetter === undefined ? {} : { bootstrapTokenGetter: dependencies.bootstrapTokenGetter }),
  };
  const context: Context = { options, deps, apiAudiences: effectiveApiAudiences(options) };
  const { members, headerNames, certificateAuthorities } = await buildRequestAuthenticators(context);
  const { tokens, issuer, oidc } = await buildTokenAuthenticators(context);
  const ttls = {
    successTtlMs: (options.tokenSuccessCacheTtlSeconds ?? defaultTokenSuccessCacheTtlSeconds) * 1000,
    failureTtlMs: (options.tokenFailureCacheTtlSeconds ?? defaultTokenFailureCacheTtlSeconds) * 1000,
  };
  const tokenUnion = tokens.length === 0 ? undefined : cachedTokenAuthenticator(tokenAuthenticatorUnion(tokens), ttls, deps.clock);
  // Installed even with no token method (kube-apiserver always has the service-account one): a
  // bearer token nobody accepts is a 401, never an anonymous request.
  const bearerTokens = tokenUnion ?? tokenAuthenticatorUnion([]);
  members.push(bearerTokenAuthenticator(bearerTokens), webSocketProtocolAuthenticator(bearerTokens));
  let chain = authenticatedGroupAdder(requestAuthenticatorUnion(members));
  if (options.anonymousAuth) chain = withFallback(chain, anonymousAuthenticator());
  return {
    requestAuthenticator: chain,
    ...(tokenUnion === undefined ? {} : { tokenAuthenticator: withGroupOnTokens(tokenUnion) }),
    ...(issuer === undefined ? {} : { tokenIssuer: issuer }),
    apiAudiences: context.apiAudiences,
    clientCertificateAuthorities: certificateAuthorities,
    identityHeadersToStrip: (headers) => (headerNames === undefined ? [] : requestHeaderIdentityHeadersIn(headers, headerNames)),
    start: async () => {
      if (oidc !== undefined) await oidc.start();
    },
    close: () => oidc?.close(),
  };
}

function sharesCertificate(a: readonly X509Certificate[], b: readonly X509Certificate[]): boolean {
  return a.some((x) => b.some((y) => x.raw.equals(y.raw)));
}

function withGroupOnTokens(inner: TokenAuthenticator): TokenAuthenticator {
  return {
    name: inner.name,
    async authenticateToken(token, audiences) {
      const outcome = await inner.authenticateToken(token, audiences);
      return outcome.kind === 'authenticated' ? { ...outcome, user: withAuthenticatedGroup(outcome.user) } : outcome;
    },
  };
}
