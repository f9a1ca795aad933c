// The outside services a cluster's authenticators call, served by the test over HTTPS with CAs of
// its own: an OpenID Connect provider (discovery and a JWKS of one RSA key) and a token webhook
// answering TokenReviews from a table the test fills.
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { SignJWT, exportJWK } from 'jose';
import { makeCa, makeServerCertificate, type TestCertificate } from '../unit/authn/fixtures/test-pki.ts';

/** An OpenID Connect provider over HTTPS. */
export interface OidcProvider {
  readonly server: Server;
  readonly issuer: string;
  readonly ca: TestCertificate;
  /** The key its JWKS publishes (kid key-1). */
  readonly key: KeyObject;
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Closes a server the test started. */
export function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()));
}

/** Starts a provider on a free port of 127.0.0.1. */
export async function startOidcProvider(): Promise<OidcProvider> {
  const ca = await makeCa('test-oidc-ca');
  const serving = await makeServerCertificate(ca);
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwk = { ...(await exportJWK(publicKey)), kid: 'key-1', use: 'sig', alg: 'RS256' };
  let issuer = '';
  const server = createServer({ cert: serving.pem, key: serving.keyPem }, (req, res) => {
    res.setHeader('content-type', 'application/json');
    if (req.url === '/.well-known/openid-configuration') res.end(JSON.stringify({ issuer, jwks_uri: `${issuer}/keys` }));
    else if (req.url === '/keys') res.end(JSON.stringify({ keys: [jwk] }));
    else res.writeHead(404).end('{}');
  });
  issuer = await listen(server);
  return { server, issuer, ca, key: privateKey };
}

/** What an id_token says beyond iss/aud/iat/exp, and how it is signed. */
export interface IdTokenSpec {
  readonly claims: Record<string, unknown>;
  /** Default 'orch' (the cluster's --oidc-client-id). */
  readonly audience?: string;
  /** Default: the provider's key. */
  readonly key?: KeyObject;
  /** Default '10m'; a past time as seconds since the epoch makes an expired token. */
  readonly expiration?: string | number;
  readonly issuedAt?: number;
}

/** An RS256 id_token of `provider` (kid key-1). */
export function idToken(provider: OidcProvider, spec: IdTokenSpec): Promise<string> {
  const jwt = new SignJWT(spec.claims).setProtectedHeader({ alg: 'RS256', kid: 'key-1' }).setIssuer(provider.issuer).setAudience(spec.audience ?? 'orch');
  return (spec.issuedAt === undefined ? jwt.setIssuedAt() : jwt.setIssuedAt(spec.issuedAt)).setExpirationTime(spec.expiration ?? '10m').sign(spec.key ?? provider.key);
}

/** A TokenReview server: each token the table names authenticates as its user; any other is authenticated:false. */
export interface TokenWebhook {
  readonly server: Server;
  readonly url: string;
  readonly ca: TestCertificate;
  /** token -> username; the test fills it. */
  readonly users: Map<string, string>;
  /** Every token it was asked about, in order. */
  readonly asked: string[];
}

/** Starts a TokenReview webhook on a free port of 127.0.0.1 (path /authenticate). */
export async function startTokenWebhook(): Promise<TokenWebhook> {
  const ca = await makeCa('test-webhook-ca');
  const serving = await makeServerCertificate(ca);
  const users = new Map<string, string>();
  const asked: string[] = [];
  const server = createServer({ cert: serving.pem, key: serving.keyPem }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      let review: { apiVersion?: string; spec?: { token?: string } };
      try {
        review = JSON.parse(Buffer.concat(chunks).toString('utf8')) as typeof review;
      } catch {
        res.writeHead(400).end();
        return;
      }
      const token = review.spec?.token ?? '';
      asked.push(token);
      const username = users.get(token);
      const status = username === undefined ? { authenticated: false } : { authenticated: true, user: { username, uid: `uid-${username}`, groups: ['webhook-users'] } };
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ apiVersion: review.apiVersion ?? 'authentication.k8s.io/v1beta1', kind: 'TokenReview', status }));
    });
  });
  const url = `${await listen(server)}/authenticate`;
  return { server, url, ca, users, asked };
}

/** Writes the --authentication-token-webhook-config-file kubeconfig: the webhook as the cluster, trusted through its CA. */
export function writeWebhookKubeconfig(path: string, webhook: TokenWebhook): void {
  const caData = Buffer.from(webhook.ca.pem).toString('base64');
  writeFileSync(path, [
    'apiVersion: v1',
    'kind: Config',
    'clusters:',
    '- name: token-webhook',
    '  cluster:',
    `    server: ${webhook.url}`,
    `    certificate-authority-data: ${caData}`,
    'users:',
    '- name: apiserver',
    '  user: {}',
    'contexts:',
    '- name: webhook',
    '  context:',
    '    cluster: token-webhook',
    '    user: apiserver',
    'current-context: webhook',
    '',
  ].join('\n'));
}
