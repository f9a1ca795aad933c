// The bearer token in a WebSocket subprotocol, as browsers and kube's websocket clients send it.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { authenticated, noOpinion } from '../../../internal/authn/authenticator.ts';
import type { TokenAuthenticator } from '../../../internal/authn/authenticator.ts';
import { webSocketProtocolAuthenticator, webSocketProtocolsWithoutToken } from '../../../internal/authn/bearertoken/websocket-protocol.ts';

const jane = { username: 'jane', uid: '', groups: [], extra: {} };
const tokens: TokenAuthenticator = { name: 't', authenticateToken: (t) => Promise.resolve(t === 'good' ? authenticated(jane) : noOpinion) };
const upgrade = { connection: 'Upgrade', upgrade: 'websocket' };
const protocol = (token: string) => `base64url.bearer.authorization.k8s.io.${Buffer.from(token).toString('base64url')}`;

async function outcome(headers: Record<string, string>) {
  return webSocketProtocolAuthenticator(tokens).authenticate({ headers, peerCertificates: [] });
}

describe('WebSocket subprotocol bearer token', () => {
  it('authenticates the token beside another subprotocol', async () => {
    assert.deepEqual(await outcome({ ...upgrade, 'sec-websocket-protocol': `v4.channel.k8s.io, ${protocol('good')}` }), authenticated(jane));
  });

  it('fails an unknown token', async () => {
    assert.deepEqual(await outcome({ ...upgrade, 'sec-websocket-protocol': `v4.channel.k8s.io,${protocol('bad')}` }), { kind: 'failed', reason: 'invalid bearer token' });
  });

  it('fails a token alone (nothing left to echo), two tokens, and bad encodings', async () => {
    assert.deepEqual(await outcome({ ...upgrade, 'sec-websocket-protocol': protocol('good') }), { kind: 'failed', reason: 'missing additional subprotocol' });
    assert.deepEqual(await outcome({ ...upgrade, 'sec-websocket-protocol': `x,${protocol('good')},${protocol('good')}` }), { kind: 'failed', reason: 'multiple base64.bearer.authorization tokens specified' });
    assert.equal((await outcome({ ...upgrade, 'sec-websocket-protocol': 'x,base64url.bearer.authorization.k8s.io.Z29vZA==' })).kind, 'failed');
    const notUtf8 = `base64url.bearer.authorization.k8s.io.${Buffer.from([0xff, 0xfe]).toString('base64url')}`;
    assert.deepEqual(await outcome({ ...upgrade, 'sec-websocket-protocol': `x,${notUtf8}` }), { kind: 'failed', reason: 'invalid base64.bearer.authorization token' });
  });

  it('has no opinion on a request that is not a WebSocket upgrade, or carries no token protocol', async () => {
    assert.deepEqual(await outcome({ 'sec-websocket-protocol': `x,${protocol('good')}` }), noOpinion);
    assert.deepEqual(await outcome({ ...upgrade, 'sec-websocket-protocol': 'v4.channel.k8s.io' }), noOpinion);
  });

  it('removes the token protocol from what is forwarded', () => {
    assert.equal(webSocketProtocolsWithoutToken({ 'sec-websocket-protocol': `v4.channel.k8s.io, ${protocol('good')}, v5.channel.k8s.io` }), 'v4.channel.k8s.io,v5.channel.k8s.io');
  });
});
