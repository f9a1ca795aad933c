// Mints service-account tokens with --service-account-signing-key-file: bound tokens for the
// TokenRequest sub-resource (`serviceaccounts/<name>/token`), and secret-based legacy tokens.
import { randomUUID } from 'node:crypto';
import type { KeyObject } from 'node:crypto';
import { invalid } from '../../registry/errors/status-error.ts';
import { signCompactJws } from '../jwt/compact-jws.ts';
import { keyIdFromPublicKey } from '../jwt/pem-keys.ts';
import { kubernetesClaimName } from './bound-claims.ts';
import type { KubernetesClaim } from './bound-claims.ts';
import { legacyClaimNames } from './legacy-validator.ts';
import { legacyIssuer, serviceAccountUsername } from './names.ts';
import * as limits from './token-limits.ts';

/** The object a bound token dies with (kube 1.28: a Pod or a Secret), already looked up by the caller. */
export interface BoundObject {
  readonly kind: 'Pod' | 'Secret';
  readonly name: string;
  readonly uid: string;
}

/** A TokenRequest, after the registry resolved the ServiceAccount and the bound object. */
export interface BoundTokenRequest {
  readonly namespace: string;
  readonly serviceAccountName: string;
  readonly serviceAccountUid: string;
  /** spec.audiences; empty or absent means the API audiences. */
  readonly audiences?: readonly string[];
  /** spec.expirationSeconds; absent means one hour. */
  readonly expirationSeconds?: number;
  readonly boundObject?: BoundObject;
}

/** A minted bound token and what TokenRequest's status and spec report. */
export interface IssuedToken {
  readonly token: string;
  /** status.expirationTimestamp. */
  readonly expirationTimestamp: Date;
  /** The audiences and the lifetime the token really has (spec is updated with them, as kube does). */
  readonly audiences: readonly string[];
  readonly expirationSeconds: number;
  /**
   * spec.expirationSeconds as kube's TokenREST answers it: the requested lifetime after the cap,
   * before any extension (an extended token's status also says this lifetime, not the real one).
   */
  readonly specExpirationSeconds: number;
}

/** What the issuer needs. */
export interface TokenIssuerOptions {
  /** --service-account-signing-key-file. */
  readonly signingKey: KeyObject;
  /** The first --service-account-issuer: the `iss` of every bound token. */
  readonly issuer: string;
  /** --api-audiences: the audiences of a request that names none. */
  readonly apiAudiences: readonly string[];
  /** --service-account-max-token-expiration in seconds; 0 or absent: no cap. */
  readonly maxExpirationSeconds?: number;
  /** --service-account-extend-token-expiration (default true). */
  readonly extendExpiration: boolean;
  readonly clock: () => number;
}

/** Mints tokens; one per server, holding the signing key. */
export class TokenIssuer {
  private readonly keyId: string;

  constructor(private readonly options: TokenIssuerOptions) {
    this.keyId = keyIdFromPublicKey(options.signingKey);
  }

  /**
   * Mints a bound token. Throws a 422 StatusError (naming spec.expirationSeconds) when the
   * lifetime is under 10 minutes or over 2^32 seconds, as TokenRequest validation does.
   */
  issueBoundToken(request: BoundTokenRequest): IssuedToken {
    const requested = request.expirationSeconds ?? limits.tokenExpirationSecondsDefault;
    checkExpiration(request.serviceAccountName, requested);
    const audiences = request.audiences !== undefined && request.audiences.length > 0 ? [...request.audiences] : [...this.options.apiAudiences];
    let expirationSeconds = requested;
    let warnAfterSeconds: number | undefined;
    const cap = this.options.maxExpirationSeconds ?? 0;
    if (cap > 0 && expirationSeconds > cap) expirationSeconds = cap;
    // As kube's TokenREST: only a projected volume's token (bound to a pod, for the API server's
    // own audiences) asking, after the cap, for exactly 3607 s is extended; anything else would let
    // a client mint a year-long token past --service-account-max-token-expiration.
    const kubeAudiences = audiences.every((a) => this.options.apiAudiences.includes(a));
    if (this.options.extendExpiration && expirationSeconds === limits.warnOnlyBoundTokenExpirationSeconds && request.boundObject?.kind === 'Pod' && kubeAudiences) {
      warnAfterSeconds = expirationSeconds;
      expirationSeconds = limits.extendedTokenExpirationSeconds;
    }
    const now = Math.floor(this.options.clock() / 1000);
    const kubernetes: KubernetesClaim = {
      namespace: request.namespace,
      serviceaccount: { name: request.serviceAccountName, uid: request.serviceAccountUid },
      ...(request.boundObject?.kind === 'Pod' ? { pod: { name: request.boundObject.name, uid: request.boundObject.uid } } : {}),
      ...(request.boundObject?.kind === 'Secret' ? { secret: { name: request.boundObject.name, uid: request.boundObject.uid } } : {}),
      ...(warnAfterSeconds === undefined ? {} : { warnafter: now + warnAfterSeconds }),
    };
    const claims = {
      aud: audiences,
      exp: now + expirationSeconds,
      iat: now,
      iss: this.options.issuer,
      // A unique id per token, as kube 1.29+ writes; harmless to 1.28 readers.
      jti: randomUUID(),
      [kubernetesClaimName]: kubernetes,
      nbf: now,
      sub: serviceAccountUsername(request.namespace, request.serviceAccountName),
    };
    const token = signCompactJws(claims, this.options.signingKey, this.keyId);
    const specExpirationSeconds = warnAfterSeconds ?? expirationSeconds;
    return { token, expirationTimestamp: new Date((now + expirationSeconds) * 1000), audiences, expirationSeconds, specExpirationSeconds };
  }

  /** Mints a secret-based token (no expiry, no audience) for a `kubernetes.io/service-account-token` Secret. */
  issueLegacyToken(account: { namespace: string; name: string; uid: string }, secretName: string): string {
    const claims = {
      iss: legacyIssuer,
      [legacyClaimNames.namespace]: account.namespace,
      [legacyClaimNames.secretName]: secretName,
      [legacyClaimNames.serviceAccountName]: account.name,
      [legacyClaimNames.serviceAccountUid]: account.uid,
      sub: serviceAccountUsername(account.namespace, account.name),
    };
    return signCompactJws(claims, this.options.signingKey, this.keyId);
  }
}

function checkExpiration(name: string, seconds: number): void {
  const field = 'spec.expirationSeconds';
  if (!Number.isSafeInteger(seconds) || seconds < limits.tokenExpirationSecondsMin) {
    throw invalid('TokenRequest', 'authentication.k8s.io', name, [{ reason: 'FieldValueInvalid', field, message: `Invalid value: ${seconds}: may not specify a duration less than 10 minutes` }]);
  }
  if (seconds > limits.tokenExpirationSecondsMax) {
    throw invalid('TokenRequest', 'authentication.k8s.io', name, [{ reason: 'FieldValueInvalid', field, message: `Invalid value: ${seconds}: may not specify a duration larger than 2^32 seconds` }]);
  }
}
