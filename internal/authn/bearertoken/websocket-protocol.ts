// Browsers cannot set an Authorization header on a WebSocket, so kube also reads a bearer token
// from a subprotocol `base64url.bearer.authorization.k8s.io.<base64url token>` of a WebSocket
// upgrade (k8s.io/apiserver pkg/authentication/request/websocket). As with the header, a token no
// token authenticator accepts is a failure.
import { failed, noOpinion } from '../authenticator.ts';
import type { AuthenticationRequest, RequestAuthenticator, RequestHeaders, TokenAuthenticator } from '../authenticator.ts';
import { headerValues } from '../headers.ts';
import { bearerTokenBytesMax } from '../limits.ts';

const bearerProtocolPrefix = 'base64url.bearer.authorization.k8s.io.';
const base64urlUnpadded = /^[A-Za-z0-9_-]*$/;

function isWebSocketUpgrade(headers: RequestHeaders): boolean {
  const connection = headerValues(headers, 'connection').join(',').toLowerCase();
  const upgrade = headerValues(headers, 'upgrade').join(',').toLowerCase();
  return connection.split(',').some((v) => v.trim() === 'upgrade') && upgrade.split(',').some((v) => v.trim() === 'websocket');
}

function protocols(headers: RequestHeaders): string[] {
  return headerValues(headers, 'sec-websocket-protocol').flatMap((v) => v.split(',').map((p) => p.trim()));
}

/** What the subprotocols hold: no token, a token and the other protocols, or why they are refused. */
type ProtocolToken = { readonly kind: 'none' } | { readonly kind: 'token'; readonly token: string } | { readonly kind: 'invalid'; readonly reason: string };

function tokenFromProtocols(headers: RequestHeaders): ProtocolToken {
  let token: string | undefined;
  const others: string[] = [];
  for (const protocol of protocols(headers)) {
    if (!protocol.startsWith(bearerProtocolPrefix)) {
      others.push(protocol);
      continue;
    }
    if (token !== undefined) return { kind: 'invalid', reason: 'multiple base64.bearer.authorization tokens specified' };
    const encoded = protocol.slice(bearerProtocolPrefix.length);
    if (!base64urlUnpadded.test(encoded) || encoded.length % 4 === 1) return { kind: 'invalid', reason: 'invalid base64.bearer.authorization token encoding' };
    const bytes = Buffer.from(encoded, 'base64url');
    token = new TextDecoder('utf-8', { fatal: false }).decode(bytes);
    if (!Buffer.from(token, 'utf8').equals(bytes)) return { kind: 'invalid', reason: 'invalid base64.bearer.authorization token' };
  }
  if (token === undefined || token === '') return { kind: 'none' };
  // Another subprotocol must remain to be echoed back once the token's is removed.
  if (others.length === 0) return { kind: 'invalid', reason: 'missing additional subprotocol' };
  if (Buffer.byteLength(token) > bearerTokenBytesMax) return { kind: 'invalid', reason: 'bearer token too long' };
  return { kind: 'token', token };
}

/** The WebSocket subprotocol bearer-token authenticator, over `tokens`. */
export function webSocketProtocolAuthenticator(tokens: TokenAuthenticator): RequestAuthenticator {
  return {
    name: 'websocket-bearer-token',
    async authenticate(request: AuthenticationRequest) {
      if (!isWebSocketUpgrade(request.headers)) return noOpinion;
      const found = tokenFromProtocols(request.headers);
      if (found.kind === 'none') return noOpinion;
      if (found.kind === 'invalid') return failed(found.reason);
      const outcome = await tokens.authenticateToken(found.token, request.audiences);
      return outcome.kind === 'no-opinion' ? failed('invalid bearer token') : outcome;
    },
  };
}

/**
 * The Sec-WebSocket-Protocol value to forward once the request is authenticated: every
 * subprotocol but the one carrying the token (so neither a backend nor the echo sees it).
 */
export function webSocketProtocolsWithoutToken(headers: RequestHeaders): string {
  return protocols(headers).filter((p) => p !== '' && !p.startsWith(bearerProtocolPrefix)).join(',');
}
