// Continue tokens: round trip, Kubernetes shape, and refusal of malformed or foreign tokens.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeContinueToken, encodeContinueToken } from '../../../internal/storage/continue-token.ts';
import { revision } from '../../../internal/storage/storage.ts';

describe('continue tokens', () => {
  it('round-trip the revision and next key, in the Kubernetes JSON shape', () => {
    const token = encodeContinueToken({ revision: revision(42), nextKey: '/core/pods/ns/b' }, '/core/pods/');
    assert.deepEqual(JSON.parse(Buffer.from(token, 'base64').toString()), { v: 'meta.k8s.io/v1', rv: 42, start: 'ns/b' });
    assert.deepEqual(decodeContinueToken(token, '/core/pods/'), { revision: 42, nextKey: '/core/pods/ns/b' });
  });

  it('keep the next key inside the prefix the token is used with', () => {
    const token = encodeContinueToken({ revision: revision(7), nextKey: '/core/pods/ns/b' }, '/core/pods/');
    assert.equal(decodeContinueToken(token, '/core/secrets/')?.nextKey, '/core/secrets/ns/b');
  });

  it('refuse malformed tokens', () => {
    const b64 = (v: unknown): string => Buffer.from(JSON.stringify(v)).toString('base64');
    for (const token of ['', '!!!', 'bm90IGpzb24=', b64({ v: 'x', rv: 1, start: '' }), b64({ v: 'meta.k8s.io/v1', rv: -1, start: '' }),
      b64({ v: 'meta.k8s.io/v1', rv: 1.5, start: '' }), b64({ v: 'meta.k8s.io/v1', rv: 1 }), b64([1])]) {
      assert.equal(decodeContinueToken(token, '/p/'), null, token);
    }
  });
});
