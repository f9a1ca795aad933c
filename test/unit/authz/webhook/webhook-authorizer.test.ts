// The Webhook authorizer against a real HTTPS server with its own CA and a client certificate.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:https';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { createCertificateAuthority, issueCertificate, type CertificateAndKey } from '../../../../internal/certificates/pki.ts';
import { buildAuthorization } from '../../../../internal/authz/authorization-modes.ts';
import { nonResourceAttributes, resourceAttributes } from '../../../../internal/authz/request-attributes.ts';
import { authorizeRequest, internalErrorText, PlainInternalError } from '../../../../internal/authz/request-outcome.ts';
import { loadWebhookKubeconfig, parseWebhookKubeconfig, type WebhookConnection } from '../../../../internal/authz/webhook/webhook-config.ts';
import { WebhookAuthorizer } from '../../../../internal/authz/webhook/webhook-authorizer.ts';
import { indexOf, rbac, user } from '../fixtures.ts';

let server: Server;
let ca: CertificateAndKey;
let client: CertificateAndKey;
let url = '';
let dir = '';
const reviews: Record<string, unknown>[] = [];

before(async () => {
  ca = await createCertificateAuthority('webhook-ca');
  const serving = await issueCertificate(ca, { commonName: 'webhook', dnsNames: ['localhost'], ipAddresses: ['127.0.0.1'], usages: ['server'] });
  client = await issueCertificate(ca, { commonName: 'kube-apiserver', usages: ['client'] });
  server = createServer({ cert: serving.cert, key: serving.key, ca: ca.cert, requestCert: true, rejectUnauthorized: true }, (req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const review = JSON.parse(body) as { apiVersion: string; spec: Record<string, unknown> };
      reviews.push(review);
      const who = review.spec.user;
      const status = who === 'allowed' ? { allowed: true, reason: 'webhook says yes' } : who === 'denied' ? { allowed: false, denied: true, reason: 'webhook says no' } : { allowed: false };
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ apiVersion: review.apiVersion, kind: 'SubjectAccessReview', status }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/authorize`;
  dir = mkdtempSync(join(tmpdir(), 'authz-webhook-'));
});

after(() => {
  server.close();
  rmSync(dir, { recursive: true, force: true });
});

function connection(): WebhookConnection {
  writeFileSync(join(dir, 'ca.pem'), ca.cert);
  writeFileSync(join(dir, 'client.pem'), client.cert);
  writeFileSync(join(dir, 'client-key.pem'), client.key);
  const kubeconfig = `apiVersion: v1
kind: Config
clusters:
- name: authz
  cluster:
    server: ${url}
    certificate-authority: ca.pem
users:
- name: apiserver
  user:
    client-certificate: client.pem
    client-key: client-key.pem
contexts:
- name: webhook
  context: {cluster: authz, user: apiserver}
current-context: webhook
`;
  writeFileSync(join(dir, 'webhook.yaml'), kubeconfig);
  return loadWebhookKubeconfig(join(dir, 'webhook.yaml'));
}

test('v1beta1 review (the default): allowed, denied and no-opinion answers, with the request described', async () => {
  reviews.length = 0;
  const webhook = new WebhookAuthorizer({ connection: connection() });
  const asked = resourceAttributes({ ...user('allowed', ['devs']), uid: 'u1' }, { verb: 'get', resource: 'pods', subresource: 'log', name: 'p', namespace: 'd', apiVersion: 'v1' });
  assert.deepEqual(await webhook.authorize(asked), { decision: 'allow', reason: 'webhook says yes' });
  assert.deepEqual(reviews[0], {
    apiVersion: 'authorization.k8s.io/v1beta1',
    kind: 'SubjectAccessReview',
    metadata: { creationTimestamp: null },
    spec: { resourceAttributes: { namespace: 'd', verb: 'get', version: 'v1', resource: 'pods', subresource: 'log', name: 'p' }, user: 'allowed', group: ['devs', 'system:authenticated'], uid: 'u1' },
    status: { allowed: false },
  });
  assert.deepEqual(await webhook.authorize(nonResourceAttributes(user('denied'), 'get', '/metrics')), { decision: 'deny', reason: 'webhook says no' });
  assert.deepEqual((reviews[1] as { spec: unknown }).spec, { nonResourceAttributes: { path: '/metrics', verb: 'get' }, user: 'denied', group: ['system:authenticated'] });
  assert.equal((await webhook.authorize(nonResourceAttributes(user('other'), 'get', '/x'))).decision, 'no-opinion');
});

test('v1 review names the groups `groups`', async () => {
  reviews.length = 0;
  const webhook = new WebhookAuthorizer({ connection: connection(), version: 'v1' });
  await webhook.authorize(nonResourceAttributes(user('allowed'), 'get', '/v1'));
  assert.equal((reviews[0] as { apiVersion: string }).apiVersion, 'authorization.k8s.io/v1');
  assert.deepEqual((reviews[0] as { spec: { groups: unknown } }).spec.groups, ['system:authenticated']);
});

test('answers are cached: allowed for 5 minutes, others for 30 seconds', async () => {
  reviews.length = 0;
  let nowMs = 1_000_000;
  const webhook = new WebhookAuthorizer({ connection: connection(), nowMs: () => nowMs });
  const yes = nonResourceAttributes(user('allowed'), 'get', '/cached');
  const no = nonResourceAttributes(user('denied'), 'get', '/cached');
  await webhook.authorize(yes);
  await webhook.authorize(no);
  await webhook.authorize(yes);
  await webhook.authorize(no);
  assert.equal(reviews.length, 2);
  nowMs += 30_001;
  assert.equal((await webhook.authorize(yes)).decision, 'allow');
  assert.equal((await webhook.authorize(no)).decision, 'deny');
  assert.equal(reviews.length, 3, 'the denial expired after 30 s, the allowance did not');
  nowMs += 5 * 60_000;
  await webhook.authorize(yes);
  assert.equal(reviews.length, 4);
});

test('a webhook that cannot be reached: no opinion with an error; a later RBAC allow still wins', async () => {
  const down: WebhookConnection = { ...connection(), server: 'https://127.0.0.1:1/authorize' };
  const webhook = new WebhookAuthorizer({ connection: down });
  const answer = await webhook.authorize(nonResourceAttributes(user('allowed'), 'get', '/x'));
  assert.equal(answer.decision, 'no-opinion');
  assert.match(answer.error?.message ?? '', /^Post "https:\/\/127\.0\.0\.1:1\/authorize": .*ECONNREFUSED/);
  const index = indexOf([rbac.clusterRole('r', [{ verbs: ['get'], nonResourceURLs: ['/x'] }]), rbac.clusterRoleBinding('b', 'r', [{ kind: 'User', name: 'ok' }])]);
  const { authorizer, ruleResolver } = buildAuthorization({ modes: ['Webhook', 'RBAC'], rbacIndex: index, webhook: { connection: down } });
  assert.equal((await authorizer.authorize(nonResourceAttributes(user('ok'), 'get', '/x'))).decision, 'allow');
  const refused = await authorizer.authorize(nonResourceAttributes(user('nobody'), 'get', '/x'));
  assert.equal(refused.decision, 'no-opinion');
  assert.ok(refused.error !== undefined, 'the filter answers 500 when an authorizer failed and none allowed');
  const outcome = await authorizeRequest(authorizer, nonResourceAttributes(user('nobody'), 'get', '/x'));
  assert.ok(outcome instanceof PlainInternalError);
  assert.match(internalErrorText('/x', outcome), /^Internal Server Error: "\/x": Post "https:\/\/127\.0\.0\.1:1\/authorize": .*ECONNREFUSED.*\n$/);
  assert.equal(await authorizeRequest(authorizer, nonResourceAttributes(user('ok'), 'get', '/x')), null);
  assert.equal(ruleResolver.rulesFor(user('ok'), '').incomplete, true);
});

test('a server certificate of another CA is refused', async () => {
  const other = await createCertificateAuthority('other-ca');
  const webhook = new WebhookAuthorizer({ connection: { ...connection(), ca: Buffer.from(other.cert) } });
  const answer = await webhook.authorize(nonResourceAttributes(user('allowed'), 'get', '/y'));
  assert.equal(answer.decision, 'no-opinion');
  assert.ok(answer.error !== undefined);
});

test('webhook kubeconfig: inline data, a token, the first entries without a current context, no server refused', () => {
  const c = parseWebhookKubeconfig(`clusters:
- name: a
  cluster: {server: "https://x:1", certificate-authority-data: ${Buffer.from('CA').toString('base64')}, insecure-skip-tls-verify: true}
users:
- name: u
  user: {token: secret}
`, '/nowhere');
  assert.deepEqual([c.server, c.ca?.toString(), c.token, c.insecureSkipTlsVerify, c.cert], ['https://x:1', 'CA', 'secret', true, undefined]);
  assert.throws(() => parseWebhookKubeconfig('clusters: []', '/'), /no cluster server/);
});
