// The signature check of a certificate request (Go's CertificateRequest.CheckSignature), made
// synchronously with node:crypto so that it can run inside validation: the request must be signed
// by the private key of the public key it carries.
import { constants, createPublicKey, verify, type KeyObject } from 'node:crypto';
import { childrenOf, readElement } from './der.ts';

interface SignatureScheme {
  /** The digest node:crypto takes (null for Ed25519, which hashes itself). */
  readonly hash: string | null;
  readonly kind: 'rsa' | 'rsa-pss' | 'ecdsa' | 'ed25519';
}

// The algorithms Go's x509 verifies a request with (signatureAlgorithmDetails), by OID.
const schemes: ReadonlyMap<string, SignatureScheme> = new Map([
  ['1.2.840.113549.1.1.5', { hash: 'sha1', kind: 'rsa' }],
  ['1.2.840.113549.1.1.11', { hash: 'sha256', kind: 'rsa' }],
  ['1.2.840.113549.1.1.12', { hash: 'sha384', kind: 'rsa' }],
  ['1.2.840.113549.1.1.13', { hash: 'sha512', kind: 'rsa' }],
  ['1.2.840.10045.4.1', { hash: 'sha1', kind: 'ecdsa' }],
  ['1.2.840.10045.4.3.2', { hash: 'sha256', kind: 'ecdsa' }],
  ['1.2.840.10045.4.3.3', { hash: 'sha384', kind: 'ecdsa' }],
  ['1.2.840.10045.4.3.4', { hash: 'sha512', kind: 'ecdsa' }],
  ['1.3.101.112', { hash: null, kind: 'ed25519' }],
]);

// RSASSA-PSS names its digest in its parameters; Go takes SHA-256, SHA-384 and SHA-512 only.
const pssOid = '1.2.840.113549.1.1.10';
const pssDigests: ReadonlyMap<string, string> = new Map([
  ['2.16.840.1.101.3.4.2.1', 'sha256'],
  ['2.16.840.1.101.3.4.2.2', 'sha384'],
  ['2.16.840.1.101.3.4.2.3', 'sha512'],
]);

const failures: Readonly<Record<SignatureScheme['kind'], string>> = {
  rsa: 'crypto/rsa: verification error',
  'rsa-pss': 'crypto/rsa: verification error',
  ecdsa: 'x509: ECDSA verification failure',
  ed25519: 'x509: Ed25519 verification failure',
};

const unimplemented = 'x509: cannot verify signature: algorithm unimplemented';

/** The dotted form of the OBJECT IDENTIFIER whose contents are `bytes`. */
function oidText(bytes: Uint8Array): string {
  const parts: number[] = [];
  let value = 0;
  for (const b of bytes) {
    value = value * 128 + (b & 0x7f);
    if ((b & 0x80) === 0) {
      parts.push(value);
      value = 0;
    }
  }
  const first = parts.shift() ?? 0;
  const head = first < 80 ? [Math.floor(first / 40), first % 40] : [2, first - 80];
  return [...head, ...parts].join('.');
}

/** The first OID found walking `bytes` depth first (a PSS parameter's hashAlgorithm). */
function firstOidInside(bytes: Uint8Array): string | undefined {
  for (let at = 0; at < bytes.length;) {
    const element = readElement(bytes, at);
    if (element === undefined) return undefined;
    if (element.tag === 0x06) return oidText(bytes.subarray(element.contentStart, element.end));
    if (element.tag & 0x20) {
      const inner = firstOidInside(bytes.subarray(element.contentStart, element.end));
      if (inner !== undefined) return inner;
    }
    at = element.end;
  }
  return undefined;
}

function schemeOf(der: Uint8Array, algorithm: { contentStart: number; end: number }): SignatureScheme | undefined {
  const inner = der.subarray(algorithm.contentStart, algorithm.end);
  const oidElement = readElement(inner, 0);
  if (oidElement === undefined || oidElement.tag !== 0x06) return undefined;
  const oid = oidText(inner.subarray(oidElement.contentStart, oidElement.end));
  if (oid !== pssOid) return schemes.get(oid);
  // Absent parameters mean SHA-1, which Go refuses for PSS.
  const digest = pssDigests.get(firstOidInside(inner.subarray(oidElement.end)) ?? '');
  return digest === undefined ? undefined : { hash: digest, kind: 'rsa-pss' };
}

function keyOptions(key: KeyObject, scheme: SignatureScheme) {
  if (scheme.kind === 'rsa-pss') return { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: constants.RSA_PSS_SALTLEN_AUTO };
  if (scheme.kind === 'ecdsa') return { key, dsaEncoding: 'der' as const };
  return { key };
}

/**
 * Why the request's signature does not check out, in Go's words; undefined when it does. `der` is
 * the request (CertificationRequest), `publicKey` its SubjectPublicKeyInfo.
 */
export function requestSignatureProblem(der: Uint8Array, publicKey: Uint8Array): string | undefined {
  const outer = readElement(der, 0);
  const parts = outer === undefined ? undefined : childrenOf(der, outer);
  const [signed, algorithm, signature] = parts ?? [];
  if (signed === undefined || algorithm === undefined || signature === undefined || signature.tag !== 0x03) return unimplemented;
  const scheme = schemeOf(der, algorithm);
  if (scheme === undefined) return unimplemented;
  let key: KeyObject;
  try {
    key = createPublicKey({ key: Buffer.from(publicKey), format: 'der', type: 'spki' });
  } catch {
    return unimplemented;
  }
  // A BIT STRING's first content byte counts the unused bits of its last byte (0 for signatures).
  const signatureBytes = der.subarray(signature.contentStart + 1, signature.end);
  try {
    return verify(scheme.hash, der.subarray(signed.start, signed.end), keyOptions(key, scheme), signatureBytes) ? undefined : failures[scheme.kind];
  } catch {
    return failures[scheme.kind];
  }
}
