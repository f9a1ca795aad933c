// The JWS algorithms we verify and sign, and the key each needs. There is deliberately no `none`
// and no HMAC: a token cannot pick a symmetric algorithm and have a public key used as its secret.
import { constants } from 'node:crypto';
import type { KeyObject } from 'node:crypto';

/** An asymmetric JWS algorithm (RFC 7518 section 3). */
export type JwsAlgorithm = 'RS256' | 'RS384' | 'RS512' | 'PS256' | 'PS384' | 'PS512' | 'ES256' | 'ES384' | 'ES512';

interface AlgorithmParameters {
  readonly hash: 'sha256' | 'sha384' | 'sha512';
  readonly keyType: 'rsa' | 'ec';
  readonly pss: boolean;
  /** For ECDSA: the one curve the algorithm is defined for (OpenSSL's name). */
  readonly curve?: string;
}

const parameters: Readonly<Record<JwsAlgorithm, AlgorithmParameters>> = {
  RS256: { hash: 'sha256', keyType: 'rsa', pss: false },
  RS384: { hash: 'sha384', keyType: 'rsa', pss: false },
  RS512: { hash: 'sha512', keyType: 'rsa', pss: false },
  PS256: { hash: 'sha256', keyType: 'rsa', pss: true },
  PS384: { hash: 'sha384', keyType: 'rsa', pss: true },
  PS512: { hash: 'sha512', keyType: 'rsa', pss: true },
  ES256: { hash: 'sha256', keyType: 'ec', pss: false, curve: 'prime256v1' },
  ES384: { hash: 'sha384', keyType: 'ec', pss: false, curve: 'secp384r1' },
  ES512: { hash: 'sha512', keyType: 'ec', pss: false, curve: 'secp521r1' },
};

/** Every algorithm this module knows, in a stable order. */
export const jwsAlgorithms = Object.keys(parameters) as JwsAlgorithm[];

/** Whether `name` is an algorithm this module knows. */
export function isJwsAlgorithm(name: unknown): name is JwsAlgorithm {
  return typeof name === 'string' && Object.hasOwn(parameters, name);
}

/** Whether `key` is of the type and curve `algorithm` requires. */
export function keyFitsAlgorithm(key: KeyObject, algorithm: JwsAlgorithm): boolean {
  const p = parameters[algorithm];
  if (p.keyType === 'rsa') return key.asymmetricKeyType === 'rsa';
  return key.asymmetricKeyType === 'ec' && key.asymmetricKeyDetails?.namedCurve === p.curve;
}

/** The node:crypto sign/verify parameters of `algorithm` for `key`. */
export function nodeSignatureOptions(algorithm: JwsAlgorithm, key: KeyObject) {
  const p = parameters[algorithm];
  if (p.keyType === 'ec') return { hash: p.hash, key: { key, dsaEncoding: 'ieee-p1363' as const } };
  if (p.pss) return { hash: p.hash, key: { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: constants.RSA_PSS_SALTLEN_DIGEST } };
  return { hash: p.hash, key: { key } };
}

/** The algorithm kube signs with for a private key: RS256 for RSA, ES256/384/512 by curve. */
export function signingAlgorithmFor(key: KeyObject): JwsAlgorithm {
  if (key.asymmetricKeyType === 'rsa') return 'RS256';
  if (key.asymmetricKeyType === 'ec') {
    const curve = key.asymmetricKeyDetails?.namedCurve;
    if (curve === 'prime256v1') return 'ES256';
    if (curve === 'secp384r1') return 'ES384';
    if (curve === 'secp521r1') return 'ES512';
  }
  throw new Error(`unsupported signing key: ${key.asymmetricKeyType ?? 'unknown'} ${key.asymmetricKeyDetails?.namedCurve ?? ''}`.trim());
}
