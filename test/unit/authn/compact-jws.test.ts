import { test } from 'node:test';
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { CompactSign, compactVerify } from 'jose';
import { jwsAlgorithms } from '../../../internal/authn/jwt/algorithms.ts';
import { parseCompactJws, signCompactJws, verifyJwsSignature } from '../../../internal/authn/jwt/compact-jws.ts';
import { hmacJwt, signJwt, unsignedJwt } from './fixtures/test-jwt.ts';

const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const claims = { iss: 'https://issuer.example', sub: 'x' };

async function verifies(token: string, key = rsa.publicKey, allowed = jwsAlgorithms): Promise<boolean> {
  const jws = parseCompactJws(token);
  return jws !== undefined && (await verifyJwsSignature(jws, key, allowed));
}

test('tokens jose signs verify, and tokens we sign verify with jose (RS256 for RSA, ES256 for P-256)', async () => {
  const payload = new TextEncoder().encode(JSON.stringify(claims));
  assert.ok(await verifies(await new CompactSign(payload).setProtectedHeader({ alg: 'RS256' }).sign(rsa.privateKey)));
  assert.ok(await verifies(await new CompactSign(payload).setProtectedHeader({ alg: 'ES256' }).sign(ec.privateKey), ec.publicKey));
  for (const [key, alg] of [[rsa, 'RS256'], [ec, 'ES256']] as const) {
    const token = signCompactJws(claims, key.privateKey, 'kid-1');
    const { protectedHeader, payload: verified } = await compactVerify(token, key.publicKey);
    assert.deepEqual(protectedHeader, { alg, kid: 'kid-1' });
    assert.deepEqual(JSON.parse(new TextDecoder().decode(verified)), claims);
  }
});

test('refused: none, HMAC keyed with the public key, an algorithm the key does not fit or the list lacks, crit, a changed payload', async () => {
  assert.equal(await verifies(unsignedJwt(claims)), false);
  assert.equal(await verifies(hmacJwt(claims, rsa.publicKey.export({ type: 'spki', format: 'pem' }).toString())), false);
  assert.equal(await verifies(signJwt({ alg: 'ES256' }, claims, ec.privateKey), rsa.publicKey), false);
  assert.equal(await verifies(signJwt({ alg: 'PS256' }, claims, rsa.privateKey), rsa.publicKey, ['RS256']), false);
  assert.equal(await verifies(signJwt({ alg: 'RS256', crit: ['exp'], exp: 1 }, claims, rsa.privateKey)), false);
  const [header, , signature] = signJwt({ alg: 'RS256' }, claims, rsa.privateKey).split('.');
  const forged = `${header}.${Buffer.from(JSON.stringify({ ...claims, sub: 'admin' })).toString('base64url')}.${signature}`;
  assert.equal(await verifies(forged), false);
  assert.ok(await verifies(signJwt({ alg: 'PS256' }, claims, rsa.privateKey)));
});
