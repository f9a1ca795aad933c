// The message a failed authentication's audit event starts with (kube's getAuthMethods in
// endpoints/filters/authn_audit.go): the kinds of credential tried, never the credentials.
import type { IncomingHttpHeaders } from 'node:http';

function header(headers: IncomingHttpHeaders, name: string): string {
  const value = headers[name];
  return (Array.isArray(value) ? value[0] : value) ?? '';
}

/** Go's Request.BasicAuth: `Basic <base64 of user:password>`. */
function hasBasicAuth(authorization: string): boolean {
  if (authorization.length < 6 || authorization.slice(0, 6).toLowerCase() !== 'basic ') return false;
  const encoded = authorization.slice(6);
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(encoded) || encoded.length % 4 !== 0) return false;
  return Buffer.from(encoded, 'base64').toString('latin1').includes(':');
}

/** `Authentication failed, attempted: basic, bearer, access_token, x509` or `..., no credentials provided`. */
export function authenticationFailedMessage(headers: IncomingHttpHeaders, query: URLSearchParams, peerCertificatePresented: boolean): string {
  const methods: string[] = [];
  const authorization = header(headers, 'authorization');
  if (hasBasicAuth(authorization)) methods.push('basic');
  const parts = authorization.trim().split(' ');
  if (parts.length > 1 && (parts[0] ?? '').toLowerCase() === 'bearer') methods.push('bearer');
  if ((query.get('access_token') ?? '').trim() !== '') methods.push('access_token');
  if (peerCertificatePresented) methods.push('x509');
  return methods.length > 0 ? `Authentication failed, attempted: ${methods.join(', ')}` : 'Authentication failed, no credentials provided';
}
