// The token webhook against an HTTPS TokenReview server this test starts (mutual TLS, configured
// through a kubeconfig file): answers, cache, audiences, retries, and a webhook that is down.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:https';
import type { Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import { sendOutboundRequest } from '../../../internal/authn/https-client.ts';
import type { OutboundRequest } from '../../../internal/authn/https-client.ts';
import { webhookEndpointFromKubeconfig } from '../../../internal/authn/webhook/kubeconfig.ts';
import type { WebhookEndpoint } from '../../../internal/authn/webhook/kubeconfig.ts';
import { webhookTokenAuthenticator } from '../../../internal/authn/webhook/webhook-authenticator.ts';
import type { WebhookAuthenticatorOptions } from '../../../internal/authn/webhook/webhook-authenticator.ts';
import { makeCa, makeCertificate, makeServerCertificate } from './fixtures/test-pki.ts';
import type { TestCertificate } from './fixtures/test-pki.ts';

interface Review {
  apiVersion: string;
  spec: { token: string; audiences?: string[] };
}

let ca: TestCertificate;
let client: TestCertificate;
let server: Server;
let url: string;
let reviews: Review[];
let clientNames: string[];
let authorizations: string[];
/** What the webhook answers next: a status code and a TokenReview status. */
let respond: (review: Review) => { code: number; status?: Record<string, unknown> };
let dir: string;
let now: number;

before(async () => {
  ca = await makeCa('webhook-ca');
  client = await makeCertificate({ commonName: 'orch-apiserver', issuer: ca });
  const serving = await makeServerCertificate(ca);
  server = createServer({ cert: serving.pem, key: serving.keyPem, ca: ca.pem, requestCert: true, rejectUnauthorized: true }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const review = JSON.parse(Buffer.concat(chunks).toString()) as Review;
      reviews.push(review);
      clientNames.push(String((req.socket as TLSSocket).getPeerCertificate().subject.CN));
      authorizations.push(req.headers.authorization ?? '');
      const { code, status } = respond(review);
      res.statusCode = code;
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ apiVersion: review.apiVersion, kind: 'TokenReview', status: status ?? {} }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/authenticate`;
  dir = mkdtempSync(path.join(tmpdir(), 'orch-webhook-'));
  writeFileSync(path.join(dir, 'ca.crt'), ca.pem);
  writeFileSync(path.join(dir, 'client.crt'), client.pem);
  writeFileSync(path.join(dir, 'client.key'), client.keyPem);
});

after(() => {
  server.close();
  rmSync(dir, { recursive: true, force: true });
});

beforeEach(() => {
  reviews = [];
  clientNames = [];
  authorizations = [];
  now = Date.UTC(2026, 0, 1);
  respond = (review) =>
    review.spec.token === 'good'
      ? { code: 200, status: { authenticated: true, user: { username: 'jane', uid: 'u-1', groups: ['dev'], extra: { scopes: ['a', 'b'] } } } }
      : { code: 200, status: { authenticated: false } };
});

function kubeconfig(server = url): string {
  return [
    'apiVersion: v1',
    'kind: Config',
    'clusters:',
    '- name: decoy',
    '  cluster: {server: "https://127.0.0.1:1"}',
    '- name: webhook',
    `  cluster: {server: "${server}", certificate-authority: ca.crt}`,
    'users:',
    '- name: apiserver',
    '  user: {client-certificate: client.crt, client-key: client.key}',
    'contexts:',
    '- name: webhook',
    '  context: {cluster: webhook, user: apiserver}',
    'current-context: webhook',
  ].join('\n');
}

const sleeps: number[] = [];

function authenticator(extra: Partial<WebhookAuthenticatorOptions> = {}, endpoint: WebhookEndpoint = webhookEndpointFromKubeconfig(kubeconfig(), dir)) {
  return webhookTokenAuthenticator({
    endpoint,
    version: 'v1beta1',
    cacheTtlMs: 120_000,
    implicitAudiences: [],
    clock: () => now,
    send: sendOutboundRequest,
    sleep: (ms) => (sleeps.push(ms), Promise.resolve()),
    ...extra,
  });
}

describe('token webhook', () => {
  beforeEach(() => (sleeps.length = 0));

  it('authenticates the user the webhook names, over mutual TLS, with a v1beta1 TokenReview', async () => {
    const outcome = await authenticator().authenticateToken('good');
    assert.deepEqual(outcome, { kind: 'authenticated', user: { username: 'jane', uid: 'u-1', groups: ['dev'], extra: { scopes: ['a', 'b'] } } });
    assert.equal(reviews[0]?.apiVersion, 'authentication.k8s.io/v1beta1');
    assert.equal(reviews[0]?.spec.token, 'good');
    assert.deepEqual(clientNames, ['orch-apiserver']);
  });

  it('sends a v1 TokenReview when configured', async () => {
    await authenticator({ version: 'v1' }).authenticateToken('good');
    assert.equal(reviews[0]?.apiVersion, 'authentication.k8s.io/v1');
  });

  it('has no opinion when the webhook says no without an error, and fails with its error', async () => {
    assert.deepEqual(await authenticator().authenticateToken('bad'), { kind: 'no-opinion' });
    respond = () => ({ code: 200, status: { authenticated: false, error: 'token revoked' } });
    const a = authenticator();
    assert.deepEqual(await a.authenticateToken('bad'), { kind: 'failed', reason: 'webhook: token revoked' });
    await a.authenticateToken('bad');
    assert.equal(reviews.length, 3, 'an answer with an error is not cached');
  });

  it('caches answers, yes and no, for the TTL', async () => {
    const a = authenticator();
    await a.authenticateToken('good');
    await a.authenticateToken('good');
    await a.authenticateToken('bad');
    await a.authenticateToken('bad');
    assert.equal(reviews.length, 2);
    now += 119_000;
    await a.authenticateToken('good');
    assert.equal(reviews.length, 2);
    now += 2_000;
    await a.authenticateToken('good');
    assert.equal(reviews.length, 3);
  });

  it('asks once for concurrent lookups of one token', async () => {
    const a = authenticator();
    await Promise.all([a.authenticateToken('good'), a.authenticateToken('good'), a.authenticateToken('good')]);
    assert.equal(reviews.length, 1);
  });

  it('does not cache with a TTL of 0', async () => {
    const a = authenticator({ cacheTtlMs: 0 });
    await a.authenticateToken('good');
    await a.authenticateToken('good');
    assert.equal(reviews.length, 2);
  });

  it('sends the API audiences and requires the answer to share one', async () => {
    const a = authenticator({ implicitAudiences: ['https://orch.example'] });
    assert.equal((await a.authenticateToken('good')).kind, 'authenticated', 'no audiences in the answer: the implicit ones');
    assert.deepEqual(reviews[0]?.spec.audiences, ['https://orch.example']);
    respond = () => ({ code: 200, status: { authenticated: true, user: { username: 'x' }, audiences: ['other'] } });
    assert.equal((await a.authenticateToken('good2')).kind, 'no-opinion');
    respond = () => ({ code: 200, status: { authenticated: true, user: { username: 'x' }, audiences: ['https://orch.example', 'other'] } });
    assert.deepEqual(await a.authenticateToken('good3'), { kind: 'authenticated', user: { username: 'x', uid: '', groups: [], extra: {} }, audiences: ['https://orch.example'] });
  });

  it('retries a 500 with kube backoff and then gives the webhook answer', async () => {
    let calls = 0;
    respond = () => (++calls < 3 ? { code: 500 } : { code: 200, status: { authenticated: true, user: { username: 'late' } } });
    const outcome = await authenticator().authenticateToken('x');
    assert.equal(outcome.kind === 'authenticated' && outcome.user.username, 'late');
    assert.equal(sleeps.length, 2);
    assert.ok(sleeps[0]! >= 500 && sleeps[0]! <= 600, String(sleeps[0]));
    assert.ok(sleeps[1]! >= 750 && sleeps[1]! <= 900, String(sleeps[1]));
  });

  it('fails (401, not 500) after 5 attempts of 5xx, and does not cache the failure', async () => {
    respond = () => ({ code: 503 });
    const a = authenticator();
    assert.deepEqual(await a.authenticateToken('good'), { kind: 'failed', reason: 'webhook: answered 503' });
    assert.equal(reviews.length, 5);
    assert.equal(sleeps.length, 4);
    respond = () => ({ code: 200, status: { authenticated: true, user: { username: 'back' } } });
    assert.equal((await a.authenticateToken('good')).kind, 'authenticated');
  });

  it('does not retry a 4xx', async () => {
    respond = () => ({ code: 403 });
    assert.deepEqual(await authenticator().authenticateToken('good'), { kind: 'failed', reason: 'webhook: answered 403' });
    assert.equal(reviews.length, 1);
  });

  it('fails a webhook that is down, without retrying a refused connection', async () => {
    const down = authenticator({}, webhookEndpointFromKubeconfig(kubeconfig('https://127.0.0.1:1/authenticate'), dir));
    const outcome = await down.authenticateToken('good');
    assert.equal(outcome.kind, 'failed');
    assert.equal(sleeps.length, 0);
  });

  it('fails a webhook whose certificate we do not trust', async () => {
    const endpoint = webhookEndpointFromKubeconfig(kubeconfig(), dir);
    const untrusting = authenticator({}, { ...endpoint, tls: { ...endpoint.tls, ca: (await makeCa('other')).pem } });
    assert.equal((await untrusting.authenticateToken('good')).kind, 'failed');
    assert.equal(reviews.length, 0);
  });

  it('fails an answer that is not a TokenReview', async () => {
    const send = async (request: OutboundRequest) => ({ ...(await sendOutboundRequest(request)), body: Buffer.from('<html>') });
    assert.deepEqual(await authenticator({ send }).authenticateToken('good'), { kind: 'failed', reason: 'webhook: answer is not a TokenReview' });
  });
});

describe('webhook kubeconfig', () => {
  it('reads inline data and a bearer token', () => {
    const text = [
      'clusters: [{name: c, cluster: {server: "https://h/x", certificate-authority-data: ' + Buffer.from(ca.pem).toString('base64') + ', tls-server-name: webhook.local}}]',
      'users: [{name: u, user: {token: s3cret}}]',
    ].join('\n');
    const endpoint = webhookEndpointFromKubeconfig(text, dir);
    assert.equal(endpoint.url.href, 'https://h/x');
    assert.equal(endpoint.tls.ca, ca.pem);
    assert.equal(endpoint.tls.serverName, 'webhook.local');
    assert.equal(endpoint.bearerToken, 's3cret');
  });

  it('resolves file paths relative to the kubeconfig and follows current-context', () => {
    const endpoint = webhookEndpointFromKubeconfig(kubeconfig(), dir);
    assert.equal(endpoint.url.href, url);
    assert.equal(endpoint.tls.clientCertificate, client.pem);
  });

  it('refuses a kubeconfig without a server or with a missing current context', () => {
    assert.throws(() => webhookEndpointFromKubeconfig('clusters: [{name: c, cluster: {}}]', dir), /no server/);
    assert.throws(() => webhookEndpointFromKubeconfig(`${kubeconfig()}\n`.replace('current-context: webhook', 'current-context: nope'), dir), /context "nope" not found/);
  });

  it('presents the kubeconfig bearer token to the webhook', async () => {
    const endpoint = { ...webhookEndpointFromKubeconfig(kubeconfig(), dir), bearerToken: 'webhook-credential' };
    await authenticator({}, endpoint).authenticateToken('good');
    assert.deepEqual(authorizations, ['Bearer webhook-credential']);
  });
});
