// Claims of secret-based service-account tokens (`iss: kubernetes/serviceaccount`, kube's
// legacy validator). With --service-account-lookup the Secret must still hold this very token and
// the ServiceAccount must still exist with the uid the token names.
import { timingSafeEqual } from 'node:crypto';
import { stringClaim } from '../jwt/claims.ts';
import { deletedObjectGraceSeconds } from '../limits.ts';
import { splitServiceAccountUsername } from './names.ts';
import { deletedLongAgo } from './object-getter.ts';
import type { ServiceAccountObjectGetter } from './object-getter.ts';
import { refuse } from './validation.ts';
import type { ClaimsValidation, ClaimsValidator } from './validation.ts';

/** The private claims of a legacy token. */
export const legacyClaimNames = {
  namespace: 'kubernetes.io/serviceaccount/namespace',
  secretName: 'kubernetes.io/serviceaccount/secret.name',
  serviceAccountName: 'kubernetes.io/serviceaccount/service-account.name',
  serviceAccountUid: 'kubernetes.io/serviceaccount/service-account.uid',
} as const;

function sameToken(a: string, b: string): boolean {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  return x.length === y.length && timingSafeEqual(x, y);
}

/** Options of the legacy validator. */
export interface LegacyValidatorOptions {
  /** --service-account-lookup: check the Secret and the ServiceAccount in the store. */
  readonly lookup: boolean;
  readonly getter?: ServiceAccountObjectGetter;
  readonly clock: () => number;
  /**
   * Told of each accepted legacy token's Secret, so the wiring can keep kube 1.28's
   * `kubernetes.io/legacy-token-last-used` label (a date, written at most daily) up to date.
   * Must not throw or block; authentication does not wait for it.
   */
  readonly onLegacyTokenUsed?: (namespace: string, secretName: string) => void;
}

/** The legacy validator; `lookup` without a getter is a wiring bug. */
export function legacyValidator(options: LegacyValidatorOptions): ClaimsValidator {
  if (options.lookup && options.getter === undefined) throw new Error('service-account lookup needs an object getter');
  return {
    async validate(claims, token): Promise<ClaimsValidation> {
      const subject = stringClaim(claims, 'sub') ?? '';
      const namespace = stringClaim(claims, legacyClaimNames.namespace) ?? '';
      const secretName = stringClaim(claims, legacyClaimNames.secretName) ?? '';
      const name = stringClaim(claims, legacyClaimNames.serviceAccountName) ?? '';
      const uid = stringClaim(claims, legacyClaimNames.serviceAccountUid) ?? '';
      if (subject === '') return refuse('sub claim is missing');
      if (namespace === '') return refuse('namespace claim is missing');
      if (secretName === '') return refuse('secretName claim is missing');
      if (name === '') return refuse('serviceAccountName claim is missing');
      if (uid === '') return refuse('serviceAccountUID claim is missing');
      const split = splitServiceAccountUsername(subject);
      if (split === undefined || split.namespace !== namespace || split.name !== name) return refuse('sub claim is invalid');
      if (options.lookup) {
        const getter = options.getter!;
        const now = options.clock();
        const secret = await getter.getSecret(namespace, secretName);
        if (secret === undefined || secret.token === undefined || !sameToken(secret.token, token)) return refuse('token has been invalidated');
        if (deletedLongAgo(secret, now, deletedObjectGraceSeconds)) return refuse('token has been invalidated');
        const account = await getter.getServiceAccount(namespace, name);
        if (account === undefined || deletedLongAgo(account, now, deletedObjectGraceSeconds)) return refuse('service account has been deleted');
        if (account.uid !== uid) return refuse('service account UID does not match claim');
      }
      options.onLegacyTokenUsed?.(namespace, secretName);
      return { ok: true, info: { namespace, name, uid } };
    },
  };
}
