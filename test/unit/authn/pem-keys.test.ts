// Key files read the way kube's keyutil reads them, and kube's key id.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import type { KeyObject } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { keyIdFromPublicKey, parsePrivateKeyPem, parsePublicKeysPem } from '../../../internal/authn/jwt/pem-keys.ts';
import { makeCertificate } from './fixtures/test-pki.ts';

const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
const ec = generateKeyPairSync('ec', { namedCurve: 'P-384' });
const ed = generateKeyPairSync('ed25519');
const pem = (k: KeyObject, type: 'spki' | 'pkcs1' | 'pkcs8' | 'sec1') => k.export({ type, format: 'pem' } as never) as unknown as string;
const ids = (keys: KeyObject[]) => keys.map(keyIdFromPublicKey);

describe('service-account key files', () => {
  it('reads every key of a file: public PKIX and PKCS#1, private PKCS#1, PKCS#8 and SEC1, certificates', async () => {
    const certificate = await makeCertificate({ commonName: 'signer' });
    const text = [pem(rsa.publicKey, 'spki'), pem(rsa.publicKey, 'pkcs1'), pem(rsa.privateKey, 'pkcs1'), pem(rsa.privateKey, 'pkcs8'), pem(ec.privateKey, 'sec1'), certificate.pem].join('\n');
    const keys = parsePublicKeysPem(text, 'f');
    assert.equal(keys.length, 6);
    assert.ok(keys.every((k) => k.type === 'public'));
    assert.equal(new Set(ids(keys.slice(0, 4))).size, 1, 'the four RSA forms are one key');
    assert.equal(keyIdFromPublicKey(keys[4]!), keyIdFromPublicKey(ec.publicKey));
  });

  it('skips blocks that are not RSA/ECDSA keys (EC PARAMETERS, Ed25519)', () => {
    const text = ['-----BEGIN EC PARAMETERS-----\nBggqhkjOPQMBBw==\n-----END EC PARAMETERS-----', pem(ed.publicKey, 'spki'), pem(ec.publicKey, 'spki')].join('\n');
    assert.deepEqual(ids(parsePublicKeysPem(text, 'f')), ids([ec.publicKey]));
  });

  it('refuses a file without keys', () => {
    assert.throws(() => parsePublicKeysPem(pem(ed.publicKey, 'spki'), 'sa.pub'), /sa.pub: data does not contain any valid RSA or ECDSA public keys/);
    assert.throws(() => parsePrivateKeyPem(pem(rsa.publicKey, 'spki'), 'sa.key'), /sa.key: data does not contain a valid RSA or ECDSA private key/);
  });

  it('reads the first private key of a signing key file', () => {
    assert.equal(keyIdFromPublicKey(parsePrivateKeyPem(pem(ec.privateKey, 'pkcs8') + pem(rsa.privateKey, 'pkcs1'), 'f')), keyIdFromPublicKey(ec.publicKey));
  });

  it('derives the key id as openssl computes base64url(SHA-256(PKIX DER))', { skip: !hasOpenssl() }, () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'orch-kid-'));
    try {
      writeFileSync(path.join(dir, 'k.pem'), pem(rsa.publicKey, 'spki'));
      const der = execFileSync('openssl', ['pkey', '-pubin', '-in', path.join(dir, 'k.pem'), '-outform', 'DER']);
      const digest = execFileSync('openssl', ['dgst', '-sha256', '-binary'], { input: der });
      assert.equal(keyIdFromPublicKey(rsa.publicKey), digest.toString('base64url'));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

function hasOpenssl(): boolean {
  try {
    execFileSync('openssl', ['version']);
    return true;
  } catch {
    return false;
  }
}
