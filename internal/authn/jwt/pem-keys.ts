// Keys from PEM files the way kube's keyutil reads them: every PEM block is tried as an RSA or
// ECDSA private key (PKCS#1, SEC1, PKCS#8), a public key (PKIX, PKCS#1) or a certificate; blocks
// that are none of these (`EC PARAMETERS`) are skipped.
import { X509Certificate, createHash, createPrivateKey, createPublicKey } from 'node:crypto';
import type { KeyObject } from 'node:crypto';

const pemBlock = /-----BEGIN ([A-Z0-9 ]+)-----([A-Za-z0-9+/=\s]*?)-----END \1-----/g;

function pemBlocks(pem: string): Buffer[] {
  return [...pem.matchAll(pemBlock)].map((m) => Buffer.from(m[2]!.replace(/\s+/g, ''), 'base64'));
}

function isRsaOrEcdsa(key: KeyObject): boolean {
  return key.asymmetricKeyType === 'rsa' || key.asymmetricKeyType === 'ec';
}

function attempt<T>(f: () => T): T | undefined {
  try {
    return f();
  } catch {
    return undefined;
  }
}

function privateKeyFromDer(der: Buffer): KeyObject | undefined {
  for (const type of ['pkcs1', 'sec1', 'pkcs8'] as const) {
    const key = attempt(() => createPrivateKey({ key: der, format: 'der', type }));
    if (key !== undefined && isRsaOrEcdsa(key)) return key;
  }
  return undefined;
}

function publicKeyFromDer(der: Buffer): KeyObject | undefined {
  for (const type of ['spki', 'pkcs1'] as const) {
    const key = attempt(() => createPublicKey({ key: der, format: 'der', type }));
    if (key !== undefined && isRsaOrEcdsa(key)) return key;
  }
  const certificateKey = attempt(() => new X509Certificate(der).publicKey);
  return certificateKey !== undefined && isRsaOrEcdsa(certificateKey) ? certificateKey : undefined;
}

/** Every RSA/ECDSA public key in `pem` (private keys give their public half); throws when there is none. */
export function parsePublicKeysPem(pem: string, what: string): KeyObject[] {
  const keys: KeyObject[] = [];
  for (const der of pemBlocks(pem)) {
    const privateKey = privateKeyFromDer(der);
    const key = privateKey !== undefined ? createPublicKey(privateKey) : publicKeyFromDer(der);
    if (key !== undefined) keys.push(key);
  }
  if (keys.length === 0) throw new Error(`${what}: data does not contain any valid RSA or ECDSA public keys`);
  return keys;
}

/** The first RSA/ECDSA private key in `pem`; throws when there is none. */
export function parsePrivateKeyPem(pem: string, what: string): KeyObject {
  for (const der of pemBlocks(pem)) {
    const key = privateKeyFromDer(der);
    if (key !== undefined) return key;
  }
  throw new Error(`${what}: data does not contain a valid RSA or ECDSA private key`);
}

/** kube's keyIDFromPublicKey: base64url (no padding) of the SHA-256 of the key's PKIX DER. */
export function keyIdFromPublicKey(key: KeyObject): string {
  const publicKey = key.type === 'private' ? createPublicKey(key) : key;
  return createHash('sha256').update(publicKey.export({ type: 'spki', format: 'der' })).digest('base64url');
}
