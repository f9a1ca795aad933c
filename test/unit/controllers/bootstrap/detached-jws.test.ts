// The detached JWS of cluster-info: `header..signature`, HS256 keyed by the token's secret, verifiable by
// any JOSE library once the payload is put back; another token does not verify it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decodeProtectedHeader } from 'jose';
import { detachedSignature } from '../../../../internal/controllers/bootstrap/detached-jws.ts';
import { verifiesWith } from './bootstrap-fixture.ts';

const content = 'apiVersion: v1\nkind: Config\n';

test('the signature is detached, names the token id and verifies with the token', async () => {
  const jws = await detachedSignature(content, 'abcdef', '0123456789abcdef');
  assert.match(jws, /^[A-Za-z0-9_-]+\.\.[A-Za-z0-9_-]+$/);
  assert.deepEqual(decodeProtectedHeader(`${jws.split('..')[0]}..`), { alg: 'HS256', kid: 'abcdef' });
  assert.equal(await verifiesWith(jws, content, 'abcdef.0123456789abcdef'), true);
});

test('another token, or another payload, does not verify', async () => {
  const jws = await detachedSignature(content, 'abcdef', '0123456789abcdef');
  assert.equal(await verifiesWith(jws, content, 'abcdef.0123456789abcdee'), false);
  assert.equal(await verifiesWith(jws, content, 'zzzzzz.0123456789abcdef'), false);
  assert.equal(await verifiesWith(jws, `${content} `, 'abcdef.0123456789abcdef'), false);
});

test('it is the signature kube computes: cluster-bootstrap\'s published vectors', async () => {
  const hello = 'Hello from the other side. I must have called a thousand times.';
  assert.equal(await detachedSignature(hello, 'joshua', 'my voice is my passcode'), 'eyJhbGciOiJIUzI1NiIsImtpZCI6Impvc2h1YSJ9..VShe2taLd-YTrmWuRkcL_8QTNDHYxQIEBsAYYiIj1_8');
  assert.equal(await detachedSignature('', 'joshua', 'my voice is my passcode'), 'eyJhbGciOiJIUzI1NiIsImtpZCI6Impvc2h1YSJ9..7Ui1ALizW4jXphVUB7xUqC9vLYLL9RZeOFfVLoB7Tgk');
  assert.equal(await detachedSignature(hello, 'joshua', 'my voice is my passcode. my voice is my passcode'), 'eyJhbGciOiJIUzI1NiIsImtpZCI6Impvc2h1YSJ9..SFoKn0-YxqnvpSExt4LuCZ_7pvIBdX3SoUO_NsTpkdg');
});

test('it is deterministic, so an unchanged ConfigMap is never rewritten', async () => {
  assert.equal(await detachedSignature(content, 'abcdef', '0123456789abcdef'), await detachedSignature(content, 'abcdef', '0123456789abcdef'));
});
