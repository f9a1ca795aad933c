// JWS compact serialization (RFC 7515): parsing without trusting anything, verifying with jose
// against a key the caller chose, signing. The header's `alg` is only ever checked against the
// caller's allow-list and the key's type; it never selects a key or an algorithm family.
import { sign } from 'node:crypto';
import type { KeyObject } from 'node:crypto';
import { compactVerify } from 'jose';
import type { CryptoKey, JWSHeaderParameters, FlattenedJWSInput } from 'jose';
import { isJwsAlgorithm, keyFitsAlgorithm, nodeSignatureOptions, signingAlgorithmFor } from './algorithms.ts';
import type { JwsAlgorithm } from './algorithms.ts';

/** A compact JWS split and decoded; nothing in it is verified yet. */
export interface UnverifiedJws {
  /** The token as sent (what jose verifies). */
  readonly compact: string;
  readonly header: Readonly<Record<string, unknown>>;
  readonly claims: Readonly<Record<string, unknown>>;
}

/** What jose takes as a verification key: one key, or a key set's selector (createLocalJWKSet). */
export type VerificationKey = KeyObject | ((header: JWSHeaderParameters, token: FlattenedJWSInput) => Promise<CryptoKey>);

const base64url = /^[A-Za-z0-9_-]*$/;

function decodeJsonObject(part: string): Record<string, unknown> | undefined {
  if (!base64url.test(part)) return undefined;
  try {
    const value: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** Splits and decodes a compact JWS whose payload is a JSON object; undefined when it is not one. */
export function parseCompactJws(token: string): UnverifiedJws | undefined {
  const parts = token.split('.');
  if (parts.length !== 3) return undefined;
  const [headerPart, payloadPart, signaturePart] = parts as [string, string, string];
  if (!base64url.test(signaturePart)) return undefined;
  const header = decodeJsonObject(headerPart);
  const claims = decodeJsonObject(payloadPart);
  if (header === undefined || claims === undefined) return undefined;
  return { compact: token, header, claims };
}

/**
 * The algorithm `jws` may be verified with: its header's `alg` when it is in `allowed`, and there
 * are no `crit` extensions (we understand none, so RFC 7515 says reject); undefined otherwise
 * (`none`, `HS256`, an algorithm outside the list).
 */
export function acceptableAlgorithm(jws: UnverifiedJws, allowed: readonly JwsAlgorithm[]): JwsAlgorithm | undefined {
  const algorithm = jws.header['alg'];
  if (!isJwsAlgorithm(algorithm) || !allowed.includes(algorithm)) return undefined;
  if (jws.header['crit'] !== undefined) return undefined;
  return algorithm;
}

/**
 * Whether `jws` is signed by `key` with an algorithm in `allowed` (jose's compactVerify, held to
 * that one algorithm). False when the header's algorithm is not acceptable (see
 * `acceptableAlgorithm`) or does not fit a single key's type and curve; a key set's selector
 * refuses keys of another type itself. Rejects only with jose's key-set errors
 * (JWKSNoMatchingKey, JWKSMultipleMatchingKeys), which the key set's owner handles.
 */
export async function verifyJwsSignature(jws: UnverifiedJws, key: VerificationKey, allowed: readonly JwsAlgorithm[]): Promise<boolean> {
  const algorithm = acceptableAlgorithm(jws, allowed);
  if (algorithm === undefined) return false;
  if (typeof key !== 'function' && !keyFitsAlgorithm(key, algorithm)) return false;
  try {
    // The overloads take a key or a selector; both reach the same code.
    await compactVerify(jws.compact, key as KeyObject, { algorithms: [algorithm] });
    return true;
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === 'ERR_JWKS_NO_MATCHING_KEY' || code === 'ERR_JWKS_MULTIPLE_MATCHING_KEYS') throw error;
    return false;
  }
}

/**
 * Signs `claims` with `privateKey` (algorithm chosen by the key as kube does); `kid` goes in the
 * header. Synchronous on node:crypto (TokenRequest mints inside a store call); jose verifies it.
 */
export function signCompactJws(claims: Readonly<Record<string, unknown>>, privateKey: KeyObject, kid: string): string {
  const algorithm = signingAlgorithmFor(privateKey);
  const header = Buffer.from(JSON.stringify({ alg: algorithm, kid })).toString('base64url');
  const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
  const options = nodeSignatureOptions(algorithm, privateKey);
  const signature = sign(options.hash, Buffer.from(`${header}.${payload}`, 'ascii'), options.key);
  return `${header}.${payload}.${signature.toString('base64url')}`;
}
