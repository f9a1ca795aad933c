// Service-account JWTs (kube's JWTTokenAuthenticator): a token whose `iss` is not one of ours is
// not ours (OIDC may take it); one of ours must be signed by one of the configured keys (all are
// tried: kube does not select by `kid`), valid for an audience the server accepts, and pass the
// claims validator.
import type { KeyObject } from 'node:crypto';
import { authenticated, failed, noOpinion } from '../authenticator.ts';
import type { TokenAuthenticator } from '../authenticator.ts';
import { jwsAlgorithms } from '../jwt/algorithms.ts';
import { audienceClaim, stringClaim } from '../jwt/claims.ts';
import { parseCompactJws, verifyJwsSignature } from '../jwt/compact-jws.ts';
import type { UnverifiedJws } from '../jwt/compact-jws.ts';
import { serviceAccountUser } from './names.ts';
import type { ClaimsValidator } from './validation.ts';

/** What a service-account token authenticator needs. */
export interface ServiceAccountTokenAuthenticatorOptions {
  /** The issuers whose tokens are ours (`kubernetes/serviceaccount` for legacy tokens). */
  readonly issuers: readonly string[];
  /** --service-account-key-file keys (public). */
  readonly keys: readonly KeyObject[];
  /** --api-audiences: a token must be valid for one of them (a token without `aud`, legacy, is valid for exactly these). */
  readonly implicitAudiences: readonly string[];
  readonly validator: ClaimsValidator;
}

/** Whether one of `keys` signed `jws` (every key is tried, as kube does). */
async function signedByAny(jws: UnverifiedJws, keys: readonly KeyObject[]): Promise<boolean> {
  for (const key of keys) if (await verifyJwsSignature(jws, key, jwsAlgorithms)) return true;
  return false;
}

/** A service-account token authenticator. */
export function serviceAccountTokenAuthenticator(options: ServiceAccountTokenAuthenticatorOptions): TokenAuthenticator {
  const issuers = new Set(options.issuers);
  return {
    name: 'serviceaccount',
    async authenticateToken(token, requestedAudiences) {
      const jws = parseCompactJws(token);
      if (jws === undefined) return noOpinion;
      const issuer = stringClaim(jws.claims, 'iss');
      if (issuer === undefined || !issuers.has(issuer)) return noOpinion;
      if (!(await signedByAny(jws, options.keys))) return failed('invalid signature');
      let tokenAudiences = audienceClaim(jws.claims);
      if (tokenAudiences === undefined) return failed('malformed audience claim');
      // A token without audiences is a legacy token: valid for the server's own audiences.
      if (tokenAudiences.length === 0) tokenAudiences = [...options.implicitAudiences];
      const wanted = requestedAudiences ?? options.implicitAudiences;
      const audiences = tokenAudiences.filter((a) => wanted.includes(a));
      if (audiences.length === 0 && options.implicitAudiences.length !== 0) return failed('token audiences are invalid for the target audiences');
      let validation;
      try {
        validation = await options.validator.validate(jws.claims, token);
      } catch {
        // The store could not say whether the token's objects exist: refuse, never guess.
        return failed('service account lookup failed');
      }
      if (!validation.ok) return failed(validation.reason);
      return authenticated(serviceAccountUser(validation.info), audiences);
    },
  };
}
