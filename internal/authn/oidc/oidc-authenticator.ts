// OpenID Connect ID tokens (kube 1.28's plugin/pkg/auth/authenticator/token/oidc over go-oidc):
// a token from another issuer is not ours; ours must be signed by a provider key with an allowed
// algorithm, name our client id in `aud`, not be expired (no leeway) nor used before `nbf` (a
// minute of leeway), and map to a user.
import { authenticated, failed, noOpinion } from '../authenticator.ts';
import type { TokenAuthenticator } from '../authenticator.ts';
import { audienceClaim, numericDateClaim, stringClaim } from '../jwt/claims.ts';
import { parseCompactJws } from '../jwt/compact-jws.ts';
import type { OutboundRequest, OutboundResponse } from '../https-client.ts';
import { oidcDiscoveryRetryMs, oidcNotBeforeLeewaySeconds } from '../limits.ts';
import { userFromClaims } from './claims-mapping.ts';
import type { OidcConfiguration } from './options.ts';
import { ProviderKeys } from './provider-keys.ts';

/** What the OIDC authenticator needs beyond its configuration. */
export interface OidcDependencies {
  readonly clock: () => number;
  readonly send: (request: OutboundRequest) => Promise<OutboundResponse>;
  /** Told (without secrets) why discovery failed; it is retried every oidcDiscoveryRetryMs. */
  readonly onDiscoveryError?: (error: unknown) => void;
}

function timeProblem(claims: Readonly<Record<string, unknown>>, nowSeconds: number): string | undefined {
  const exp = numericDateClaim(claims, 'exp');
  const nbf = numericDateClaim(claims, 'nbf');
  if (exp === undefined || Number.isNaN(exp) || exp < nowSeconds) return 'oidc: token is expired';
  if (nbf !== undefined && (Number.isNaN(nbf) || nowSeconds + oidcNotBeforeLeewaySeconds < nbf)) return 'oidc: current time before the nbf (not before) time';
  return undefined;
}

/** The OIDC token authenticator; `start()` it, `close()` it. */
export class OidcAuthenticator implements TokenAuthenticator {
  readonly name = 'oidc';
  private readonly keys: ProviderKeys;
  private retryTimer: NodeJS.Timeout | undefined;
  private closed = false;
  private firstAttempt: Promise<boolean> | undefined;

  constructor(private readonly config: OidcConfiguration, private readonly deps: OidcDependencies) {
    this.keys = new ProviderKeys({ issuerUrl: config.issuerUrl, clock: deps.clock, send: deps.send, ...(config.caPem === undefined ? {} : { caPem: config.caPem }) });
  }

  /**
   * Runs discovery now and, until it succeeds, every oidcDiscoveryRetryMs; resolves with whether
   * the first attempt succeeded. Idempotent; a token arriving before any call starts it too.
   */
  start(): Promise<boolean> {
    this.firstAttempt ??= this.attemptDiscovery();
    return this.firstAttempt;
  }

  private async attemptDiscovery(): Promise<boolean> {
    if (this.closed || this.keys.discovered) return this.keys.discovered;
    try {
      await this.keys.discover();
      return true;
    } catch (error) {
      this.deps.onDiscoveryError?.(error);
      if (!this.closed) {
        this.retryTimer = setTimeout(() => void this.attemptDiscovery(), oidcDiscoveryRetryMs);
        this.retryTimer.unref();
      }
      return false;
    }
  }

  /** Stops the discovery retries. */
  close(): void {
    this.closed = true;
    if (this.retryTimer !== undefined) clearTimeout(this.retryTimer);
  }

  async authenticateToken(token: string) {
    const jws = parseCompactJws(token);
    if (jws === undefined || stringClaim(jws.claims, 'iss') !== this.config.issuerUrl) return noOpinion;
    if (!this.keys.discovered) {
      void this.start();
      return failed('oidc: authenticator not initialized');
    }
    if (!(await this.keys.verify(jws, this.config.signingAlgorithms))) return failed('oidc: failed to verify signature');
    const audiences = audienceClaim(jws.claims);
    if (audiences === undefined || !audiences.includes(this.config.clientId)) return failed('oidc: expected audience not in token audiences');
    const time = timeProblem(jws.claims, Math.floor(this.deps.clock() / 1000));
    if (time !== undefined) return failed(time);
    const mapping = userFromClaims(jws.claims, this.config);
    return mapping.ok ? authenticated(mapping.user) : failed(mapping.reason);
  }
}
