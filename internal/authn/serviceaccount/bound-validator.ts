// Claims of bound service-account tokens (kube's validator for --service-account-issuer tokens):
// time claims with a minute of leeway, then the ServiceAccount and the bound Pod or Secret must
// still exist with the uids the token names (always, whatever --service-account-lookup says).
import { numericDateClaim, stringClaim } from '../jwt/claims.ts';
import { deletedObjectGraceSeconds, serviceAccountClockLeewaySeconds as leeway } from '../limits.ts';
import { readKubernetesClaim } from './bound-claims.ts';
import type { ObjectReferenceClaim } from './bound-claims.ts';
import { serviceAccountUsername } from './names.ts';
import { deletedLongAgo } from './object-getter.ts';
import type { ObjectIdentity, ServiceAccountObjectGetter } from './object-getter.ts';
import { refuse } from './validation.ts';
import type { ClaimsValidation, ClaimsValidator } from './validation.ts';

/** Options of the bound-token validator. */
export interface BoundValidatorOptions {
  /** Reads the objects the token names; absent only in tests of the claims alone. */
  readonly getter?: ServiceAccountObjectGetter;
  readonly clock: () => number;
}

/**
 * Why the time claims refuse the token, or undefined. `exp` is required: every token this server
 * mints has one, and a token without one could never be revoked short of deleting its objects.
 */
export function timeClaimsProblem(claims: Readonly<Record<string, unknown>>, nowSeconds: number): string | undefined {
  const exp = numericDateClaim(claims, 'exp');
  const nbf = numericDateClaim(claims, 'nbf');
  const iat = numericDateClaim(claims, 'iat');
  if (exp === undefined || Number.isNaN(exp)) return 'service account token has no valid expiry';
  if (Number.isNaN(nbf ?? 0) || Number.isNaN(iat ?? 0)) return 'service account token has malformed time claims';
  if (nbf !== undefined && nowSeconds + leeway < nbf) return 'service account token is not valid yet';
  if (nowSeconds - leeway > exp) return 'service account token has expired';
  if (iat !== undefined && nowSeconds + leeway < iat) return 'service account token is issued in the future';
  return undefined;
}

async function referencedObjectProblem(
  what: string,
  reference: ObjectReferenceClaim,
  get: () => Promise<ObjectIdentity | undefined>,
  nowMs: number,
): Promise<string | undefined> {
  const object = await get();
  if (object === undefined || deletedLongAgo(object, nowMs, deletedObjectGraceSeconds)) return `${what} has been deleted`;
  if (object.uid !== reference.uid) return `${what} UID does not match claim`;
  return undefined;
}

/** The bound-token validator. */
export function boundValidator(options: BoundValidatorOptions): ClaimsValidator {
  return {
    async validate(claims): Promise<ClaimsValidation> {
      const nowMs = options.clock();
      const timeProblem = timeClaimsProblem(claims, Math.floor(nowMs / 1000));
      if (timeProblem !== undefined) return refuse(timeProblem);
      const k = readKubernetesClaim(claims);
      if (typeof k === 'string') return refuse(k);
      if (stringClaim(claims, 'sub') !== serviceAccountUsername(k.namespace, k.serviceaccount.name)) return refuse('sub claim is invalid');
      const getter = options.getter;
      if (getter !== undefined) {
        const problem =
          (await referencedObjectProblem('service account', k.serviceaccount, () => getter.getServiceAccount(k.namespace, k.serviceaccount.name), nowMs)) ??
          (k.secret && (await referencedObjectProblem('secret', k.secret, () => getter.getSecret(k.namespace, k.secret!.name), nowMs))) ??
          (k.pod && (await referencedObjectProblem('pod', k.pod, () => getter.getPod(k.namespace, k.pod!.name), nowMs)));
        if (problem) return refuse(problem);
      }
      const pod = k.pod === undefined ? {} : { podName: k.pod.name, podUid: k.pod.uid };
      return { ok: true, info: { namespace: k.namespace, name: k.serviceaccount.name, uid: k.serviceaccount.uid, ...pod } };
    },
  };
}
