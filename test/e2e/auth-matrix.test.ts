// Issue 22's acceptance matrix on a real 3-process cluster: every authenticator (x509 client
// certificate of the cluster CA, static token file, service-account token from the TokenRequest
// API, OIDC id_token, token webhook, authenticating proxy, anonymous) x a user with the right and
// one without (a Role and RoleBinding in namespace `matrix`) x read (list configmaps) and write
// (create a configmap) x each of the three replicas, with exact statuses and kube's 403 bodies,
// counted: 0 wrongly allowed, 0 wrongly denied. Then bad credentials of every kind, each the bare
// 401, and the credentials kube ignores (proxy headers without the proxy's certificate, Basic,
// an empty Bearer), which leave the request anonymous; groups of each authenticator through a Group
// subject, TokenReview of each kind of token, several credentials on one request in kube's order,
// and a webhook that cannot be reached.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { TokenIssuer } from '../../internal/authn/index.ts';
import { parsePrivateKeyPem } from '../../internal/authn/jwt/pem-keys.ts';
import { issueCertificate } from '../../internal/certificates/index.ts';
import { startAuthCluster, oidcUsernamePrefix, proxyUserHeader, type AuthCluster } from '../support/auth-cluster.ts';
import { callReplica, eventually, forbiddenStatus, parsed, unauthorizedStatus, type Answer, type Call, type Credential } from '../support/auth-https.ts';
import { clusterSignedCertificate } from '../support/auth-certificates.ts';
import { matrixRunner, pair, type Principal } from '../support/auth-matrix-runner.ts';
import { idToken } from '../support/auth-providers.ts';
import { makeCa, makeCertificate } from '../unit/authn/fixtures/test-pki.ts';

const namespace = 'matrix';
const configmaps = `/api/v1/namespaces/${namespace}/configmaps`;
const replicas = [0, 1, 2] as const;

async function admin(c: AuthCluster, path: string, call: Call, replica = 0): Promise<Answer> {
  return callReplica(c.cluster, replica, path, { token: c.adminToken, ...call });
}

async function created(c: AuthCluster, path: string, body: unknown): Promise<unknown> {
  const answer = await admin(c, path, { method: 'POST', body });
  assert.equal(answer.status, 201, `${path}: ${answer.body}`);
  return JSON.parse(answer.body);
}

/** Whether every replica's authorizer gives `user` create on configmaps in `matrix` (`allowed`), by SubjectAccessReview. */
async function waitAuthorized(c: AuthCluster, user: string, allowed: boolean): Promise<void> {
  const review = { apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview', spec: { user, resourceAttributes: { namespace, verb: 'create', resource: 'configmaps' } } };
  for (const replica of replicas) {
    await eventually(`${user} ${allowed ? 'allowed' : 'denied'} on replica ${replica}`, async () => {
      const answer = await admin(c, '/apis/authorization.k8s.io/v1/subjectaccessreviews', { method: 'POST', body: review }, replica);
      assert.equal(answer.status, 201, answer.body);
      return (JSON.parse(answer.body) as { status: { allowed?: boolean } }).status.allowed === allowed;
    });
  }
}

/** A bound token for a ServiceAccount through the TokenRequest API (as the admin). */
async function tokenRequest(c: AuthCluster, account: string, spec: Record<string, unknown> = {}, replica = 0): Promise<string> {
  const answer = await admin(c, `/api/v1/namespaces/${namespace}/serviceaccounts/${account}/token`, { method: 'POST', body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec } }, replica);
  assert.equal(answer.status, 201, answer.body);
  return (JSON.parse(answer.body) as { status: { token: string } }).status.token;
}

/** Asserts the bare 401 through every replica. */
async function assertUnauthorized(c: AuthCluster, credential: Credential, what: string): Promise<void> {
  for (const replica of replicas) {
    const answer = await callReplica(c.cluster, replica, configmaps, credential);
    assert.equal(answer.status, 401, `${what} through replica ${replica}: ${answer.body}`);
    assert.deepEqual(parsed(answer), unauthorizedStatus, `${what} through replica ${replica}`);
  }
}

/** Asserts the request goes on as system:anonymous (who has no rights in `matrix` then): kube's 403. */
async function assertAnonymous(c: AuthCluster, credential: Credential, what: string): Promise<void> {
  for (const replica of replicas) {
    const answer = await callReplica(c.cluster, replica, configmaps, credential);
    assert.deepEqual(parsed(answer), forbiddenStatus('system:anonymous', 'list', 'configmaps', namespace), `${what} through replica ${replica}`);
  }
}

const tokenFileUsers = new Map([
  ['token-with-0123456789abcdef', { name: 'token-with' }],
  ['token-without-0123456789abcdef', { name: 'token-without' }],
  ['token-team-0123456789abcdef', { name: 'token-team-member', groups: ['other-team', 'matrix-team'] }],
]);
/** The group a second RoleBinding grants the Role to, and a group it does not. */
const team = 'matrix-team';
const grantedUsers = ['cert-with', 'token-with', `${oidcUsernamePrefix}oidc-with`, 'webhook-with', 'proxy-with'];

test('issue 22 acceptance matrix: every authenticator x granted or not x read and write x every replica, and every kind of bad credential', { timeout: 600_000 }, async (t) => {
  const c = await startAuthCluster({ tokenFileUsers });
  t.after(() => c.stop());
  const matrix = matrixRunner(c.cluster, namespace);
  c.webhook.users.set('webhook-token-with', 'webhook-with');
  c.webhook.users.set('webhook-token-without', 'webhook-without');

  await created(c, '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } });
  await eventually('the namespace is active on every replica', async () => (await Promise.all(replicas.map((r) => admin(c, `/api/v1/namespaces/${namespace}`, {}, r)))).every((a) => a.status === 200));
  for (const name of ['sa-with', 'sa-without']) await created(c, `/api/v1/namespaces/${namespace}/serviceaccounts`, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name } });
  await created(c, `/apis/rbac.authorization.k8s.io/v1/namespaces/${namespace}/roles`, {
    apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: 'configmap-rw' },
    rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list', 'create'] }],
  });
  await created(c, `/apis/rbac.authorization.k8s.io/v1/namespaces/${namespace}/rolebindings`, {
    apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', metadata: { name: 'configmap-rw' },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'configmap-rw' },
    subjects: [
      ...grantedUsers.map((name) => ({ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name })),
      { kind: 'ServiceAccount', name: 'sa-with', namespace },
    ],
  });
  for (const user of [...grantedUsers, `system:serviceaccount:${namespace}:sa-with`]) await waitAuthorized(c, user, true);

  await t.test('x509 client certificates of the cluster CA: the CN is the user', async () => {
    const withCert = await issueCertificate(c.clusterCa, { commonName: 'cert-with', organizations: ['team-a'], usages: ['client'] });
    const withoutCert = await issueCertificate(c.clusterCa, { commonName: 'cert-without', organizations: ['team-a'], usages: ['client'] });
    assert.deepEqual(await matrix.run(pair('x509', 'cert-with', withCert, 'cert-without', withoutCert)), []);
  });

  await t.test('static token file users', async () => {
    assert.deepEqual(await matrix.run(pair('tokenfile', 'token-with', { token: 'token-with-0123456789abcdef' }, 'token-without', { token: 'token-without-0123456789abcdef' })), []);
  });

  await t.test('service-account tokens from the TokenRequest API (each account\'s token minted through a different replica)', async () => {
    const withToken = await tokenRequest(c, 'sa-with', {}, 1);
    const withoutToken = await tokenRequest(c, 'sa-without', {}, 2);
    const user = (name: string) => `system:serviceaccount:${namespace}:${name}`;
    assert.deepEqual(await matrix.run(pair('serviceaccount', user('sa-with'), { token: withToken }, user('sa-without'), { token: withoutToken })), []);
  });

  await t.test('OIDC id_tokens of the provider the test serves (username prefixed oidc:)', async () => {
    const withToken = await idToken(c.oidc, { claims: { sub: 'oidc-with' } });
    const withoutToken = await idToken(c.oidc, { claims: { sub: 'oidc-without' } });
    assert.deepEqual(await matrix.run(pair('oidc', 'oidc:oidc-with', { token: withToken }, 'oidc:oidc-without', { token: withoutToken })), []);
  });

  await t.test('token webhook users (a TokenReview server over HTTPS with its own CA)', async () => {
    assert.deepEqual(await matrix.run(pair('webhook', 'webhook-with', { token: 'webhook-token-with' }, 'webhook-without', { token: 'webhook-token-without' })), []);
    assert.ok(c.webhook.asked.includes('webhook-token-with') && c.webhook.asked.includes('webhook-token-without'), 'the webhook was asked');
  });

  await t.test('authenticating proxy: the user header with the proxy\'s certificate', async () => {
    const proxy = { cert: c.proxy.pem, key: c.proxy.keyPem };
    assert.deepEqual(await matrix.run(pair('proxy', 'proxy-with', { ...proxy, headers: { [proxyUserHeader]: 'proxy-with' } }, 'proxy-without', { ...proxy, headers: { [proxyUserHeader]: 'proxy-without' } })), []);
  });

  await t.test('anonymous: denied, then granted by a RoleBinding of system:anonymous in the namespace, then denied again once it is deleted', async () => {
    const anonymous = (allowed: boolean): Principal => ({ method: 'anonymous', username: 'system:anonymous', allowed, credential: {} });
    assert.deepEqual(await matrix.run([anonymous(false)]), []);
    await created(c, `/apis/rbac.authorization.k8s.io/v1/namespaces/${namespace}/rolebindings`, {
      apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', metadata: { name: 'anonymous-rw' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'configmap-rw' },
      subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'system:anonymous' }],
    });
    await waitAuthorized(c, 'system:anonymous', true);
    assert.deepEqual(await matrix.run([anonymous(true)]), []);
    const deleted = await admin(c, `/apis/rbac.authorization.k8s.io/v1/namespaces/${namespace}/rolebindings/anonymous-rw`, { method: 'DELETE' });
    assert.equal(deleted.status, 200, deleted.body);
    await waitAuthorized(c, 'system:anonymous', false);
  });

  await t.test('the matrix\'s count: 0 wrongly allowed, 0 wrongly denied, nothing else unexpected', () => {
    // 6 methods x 2 users x 2 verbs x 3 replicas, and anonymous denied then granted x 2 verbs x 3 replicas.
    assert.equal(matrix.tally.requests, 6 * 2 * 2 * 3 + 2 * 2 * 3);
    assert.deepEqual({ wronglyAllowed: matrix.tally.wronglyAllowed, wronglyDenied: matrix.tally.wronglyDenied, otherwise: matrix.tally.otherwise }, { wronglyAllowed: [], wronglyDenied: [], otherwise: [] });
    assert.equal(matrix.tally.rightlyAllowed, 6 * 2 * 3 + 2 * 3);
    assert.equal(matrix.tally.rightlyDenied, 6 * 2 * 3 + 2 * 3);
  });

  await t.test('the configmaps written are there, each once, read back through another replica', async () => {
    const answer = await admin(c, configmaps, {}, 2);
    const names = (JSON.parse(answer.body) as { items: { metadata: { name: string } }[] }).items.map((i) => i.metadata.name).filter((n) => n !== 'kube-root-ca.crt');
    assert.equal(names.length, 6 * 3 + 3);
    assert.equal(new Set(names).size, names.length);
  });

  const saUid = async (name: string): Promise<string> => (JSON.parse((await admin(c, `/api/v1/namespaces/${namespace}/serviceaccounts/${name}`, {})).body) as { metadata: { uid: string } }).metadata.uid;
  const serviceAccountIssuer = (signingKeyPem: string, clock: () => number, audiences: string[] = [c.cluster.serviceAccount.issuer]) => new TokenIssuer({
    signingKey: parsePrivateKeyPem(signingKeyPem, 'sa.key'), issuer: c.cluster.serviceAccount.issuer, apiAudiences: audiences, extendExpiration: false, clock,
  });
  const clusterSigningKey = readFileSync(c.cluster.serviceAccount.signingKeyFile, 'utf8');

  await t.test('bad service-account tokens are 401s: expired, wrong signature, tampered, wrong audience', async () => {
    const uid = await saUid('sa-with');
    const claims = { namespace, serviceAccountName: 'sa-with', serviceAccountUid: uid, expirationSeconds: 3600 };
    const twoHoursAgo = () => Date.now() - 2 * 3600_000;
    await assertUnauthorized(c, { token: serviceAccountIssuer(clusterSigningKey, twoHoursAgo).issueBoundToken(claims).token }, 'an expired token signed with the cluster key');
    const otherKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    await assertUnauthorized(c, { token: serviceAccountIssuer(otherKey, Date.now).issueBoundToken(claims).token }, 'a token signed with another key');
    const good = serviceAccountIssuer(clusterSigningKey, Date.now).issueBoundToken(claims).token;
    const [header, payload] = good.split('.');
    const forged = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload ?? '', 'base64url').toString('utf8')) as object, sub: 'system:serviceaccount:kube-system:default' })).toString('base64url');
    await assertUnauthorized(c, { token: `${header}.${forged}.${good.split('.')[2]}` }, 'a token whose payload was changed after signing');
    await assertUnauthorized(c, { token: await tokenRequest(c, 'sa-with', { audiences: ['not-the-api'] }) }, 'a TokenRequest token for another audience');
    await assertUnauthorized(c, { token: serviceAccountIssuer(clusterSigningKey, Date.now, ['https://elsewhere.example']).issueBoundToken(claims).token }, 'a cluster-signed token for another audience');
    // The same account's fresh token is fine: the refusals above are the tokens'.
    assert.equal((await callReplica(c.cluster, 1, configmaps, { token: good })).status, 200);
  });

  await t.test('the token of a deleted ServiceAccount is a 401 on every replica', async () => {
    await created(c, `/api/v1/namespaces/${namespace}/serviceaccounts`, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'doomed' } });
    const token = await tokenRequest(c, 'doomed', {}, 1);
    const deleted = await admin(c, `/api/v1/namespaces/${namespace}/serviceaccounts/doomed`, { method: 'DELETE' });
    assert.equal(deleted.status, 200, deleted.body);
    await eventually('the account is gone on every replica', async () => (await Promise.all(replicas.map((r) => admin(c, `/api/v1/namespaces/${namespace}/serviceaccounts/doomed`, {}, r)))).every((a) => a.status === 404));
    await assertUnauthorized(c, { token }, 'the token of a deleted account');
    // A new account of the same name has another uid: the old token stays refused.
    await created(c, `/api/v1/namespaces/${namespace}/serviceaccounts`, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'doomed' } });
    await eventually('the new account is on every replica', async () => (await Promise.all(replicas.map((r) => admin(c, `/api/v1/namespaces/${namespace}/serviceaccounts/doomed`, {}, r)))).every((a) => a.status === 200));
    await assertUnauthorized(c, { token }, 'the token of a deleted account, its name taken again');
  });

  await t.test('bad OIDC id_tokens are 401s: wrong audience, wrong signature, expired', async () => {
    await assertUnauthorized(c, { token: await idToken(c.oidc, { claims: { sub: 'oidc-with' }, audience: 'someone-else' }) }, 'an id_token for another client');
    const otherKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
    await assertUnauthorized(c, { token: await idToken(c.oidc, { claims: { sub: 'oidc-with' }, key: otherKey }) }, 'an id_token signed with a key the provider does not publish');
    const hourAgo = Math.floor(Date.now() / 1000) - 3600;
    await assertUnauthorized(c, { token: await idToken(c.oidc, { claims: { sub: 'oidc-with' }, issuedAt: hourAgo - 600, expiration: hourAgo }) }, 'an expired id_token');
  });

  await t.test('bad certificates are 401s: a client certificate of an unknown CA; proxy headers with a proxy-CA certificate whose CN is not allowed', async () => {
    const otherCa = await makeCa('some-other-ca');
    const stranger = await makeCertificate({ commonName: 'cert-with', organizations: ['system:masters'], issuer: otherCa });
    await assertUnauthorized(c, { cert: stranger.pem, key: stranger.keyPem }, 'a certificate of an unknown CA');
    await assertUnauthorized(c, { cert: c.strangerProxy.pem, key: c.strangerProxy.keyPem, headers: { [proxyUserHeader]: 'proxy-with' } }, 'a proxy-CA certificate with a CN not allowed');
  });

  await t.test('cluster-CA certificates kube\'s x509 verification refuses are 401s: expired, not yet valid, for servers only', async () => {
    const dayMs = 86_400_000;
    const now = Date.now();
    const expired = await clusterSignedCertificate(c.clusterCa, { commonName: 'cert-with', notBefore: new Date(now - 10 * dayMs), notAfter: new Date(now - dayMs) });
    await assertUnauthorized(c, expired, 'an expired certificate of the cluster CA');
    const early = await clusterSignedCertificate(c.clusterCa, { commonName: 'cert-with', notBefore: new Date(now + dayMs), notAfter: new Date(now + 10 * dayMs) });
    await assertUnauthorized(c, early, 'a certificate of the cluster CA not valid yet');
    const serverOnly = await clusterSignedCertificate(c.clusterCa, { commonName: 'cert-with', usages: ['server'] });
    await assertUnauthorized(c, serverOnly, 'a certificate of the cluster CA for server authentication only');
    // The same helper's plain client certificate is cert-with: the refusals above are the certificates'.
    assert.equal((await callReplica(c.cluster, 0, configmaps, await clusterSignedCertificate(c.clusterCa, { commonName: 'cert-with' }))).status, 200);
  });

  await t.test('groups from every authenticator that has them grant through a Group subject (x509 O, token file, OIDC groups claim, webhook, proxy group header)', async () => {
    await created(c, `/apis/rbac.authorization.k8s.io/v1/namespaces/${namespace}/rolebindings`, {
      apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', metadata: { name: 'team-rw' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'configmap-rw' },
      subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: team }],
    });
    const review = { apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview', spec: { user: 'someone', groups: [team], resourceAttributes: { namespace, verb: 'list', resource: 'configmaps' } } };
    for (const replica of replicas) {
      await eventually(`the team binding on replica ${replica}`, async () => (JSON.parse((await admin(c, '/apis/authorization.k8s.io/v1/subjectaccessreviews', { method: 'POST', body: review }, replica)).body) as { status: { allowed?: boolean } }).status.allowed === true);
    }
    c.webhook.users.set('webhook-token-team', 'webhook-team-member');
    const proxy = { cert: c.proxy.pem, key: c.proxy.keyPem };
    const members: [string, Credential][] = [
      ['cert-team-member', await issueCertificate(c.clusterCa, { commonName: 'cert-team-member', organizations: ['other-team', team], usages: ['client'] })],
      ['token-team-member', { token: 'token-team-0123456789abcdef' }],
      ['oidc:oidc-team-member', { token: await idToken(c.oidc, { claims: { sub: 'oidc-team-member', groups: [team] } }) }],
      ['proxy-team-member', { ...proxy, headers: { [proxyUserHeader]: 'proxy-team-member', 'X-Remote-Group': team } }],
    ];
    const outsiders: [string, Credential][] = [
      ['cert-outsider', await issueCertificate(c.clusterCa, { commonName: 'cert-outsider', organizations: ['other-team'], usages: ['client'] })],
      ['oidc:oidc-outsider', { token: await idToken(c.oidc, { claims: { sub: 'oidc-outsider', groups: ['other-team'] } }) }],
      ['proxy-outsider', { ...proxy, headers: { [proxyUserHeader]: 'proxy-outsider', 'X-Remote-Group': 'other-team' } }],
      // The webhook's users are in webhook-users only.
      ['webhook-team-member', { token: 'webhook-token-team' }],
    ];
    for (const [index, [user, credential]] of members.entries()) {
      const answer = await callReplica(c.cluster, index, configmaps, credential);
      assert.equal(answer.status, 200, `${user}: ${answer.body}`);
    }
    for (const [index, [user, credential]] of outsiders.entries()) {
      assert.deepEqual(parsed(await callReplica(c.cluster, index, configmaps, credential)), forbiddenStatus(user, 'list', 'configmaps', namespace), user);
    }
  });

  await t.test('TokenReview through each replica names each kind of token\'s user and groups; a bad token is authenticated:false', async () => {
    const saToken = await tokenRequest(c, 'sa-with');
    const cases: [string, { username: string; groups: string[] }][] = [
      ['token-team-0123456789abcdef', { username: 'token-team-member', groups: ['other-team', team, 'system:authenticated'] }],
      [saToken, { username: `system:serviceaccount:${namespace}:sa-with`, groups: ['system:serviceaccounts', `system:serviceaccounts:${namespace}`, 'system:authenticated'] }],
      [await idToken(c.oidc, { claims: { sub: 'oidc-with', groups: ['g1'] } }), { username: 'oidc:oidc-with', groups: ['g1', 'system:authenticated'] }],
      ['webhook-token-with', { username: 'webhook-with', groups: ['webhook-users', 'system:authenticated'] }],
    ];
    for (const [index, [token, expected]] of cases.entries()) {
      const answer = await admin(c, '/apis/authentication.k8s.io/v1/tokenreviews', { method: 'POST', body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token } } }, index);
      assert.equal(answer.status, 201, answer.body);
      const status = (JSON.parse(answer.body) as { status: { authenticated?: boolean; user: { username: string; groups: string[] } } }).status;
      assert.equal(status.authenticated, true, expected.username);
      assert.deepEqual({ username: status.user.username, groups: status.user.groups }, expected);
    }
    const bad = await admin(c, '/apis/authentication.k8s.io/v1/tokenreviews', { method: 'POST', body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token: 'a.b.c' } } }, 2);
    assert.equal(bad.status, 201, bad.body);
    assert.notEqual((JSON.parse(bad.body) as { status: { authenticated?: boolean } }).status.authenticated, true);
  });

  await t.test('several credentials go in kube\'s order (proxy, certificate, bearer token): the first that authenticates decides; an earlier one\'s error is no refusal', async () => {
    const certWithout = await issueCertificate(c.clusterCa, { commonName: 'cert-without', usages: ['client'] });
    const certWith = await issueCertificate(c.clusterCa, { commonName: 'cert-with', usages: ['client'] });
    const forbidden = (user: string) => forbiddenStatus(user, 'list', 'configmaps', namespace);
    for (const replica of replicas) {
      const list = (credential: Credential) => callReplica(c.cluster, replica, configmaps, credential);
      assert.deepEqual(parsed(await list({ ...certWithout, token: 'token-with-0123456789abcdef' })), forbidden('cert-without'), 'a certificate before a token');
      assert.equal((await list({ ...certWith, token: 'a.b.c' })).status, 200, 'a certificate, then a bad token never looked at');
      const proxy = { cert: c.proxy.pem, key: c.proxy.keyPem };
      assert.deepEqual(parsed(await list({ ...proxy, headers: { [proxyUserHeader]: 'proxy-without' }, token: 'token-with-0123456789abcdef' })), forbidden('proxy-without'), 'proxy headers before a token');
      const otherCa = await makeCa('another-ca');
      const stranger = await makeCertificate({ commonName: 'cert-with', issuer: otherCa });
      assert.equal((await list({ cert: stranger.pem, key: stranger.keyPem, token: 'token-with-0123456789abcdef' })).status, 200, 'a certificate of an unknown CA, then a good token');
      assert.equal((await list({ cert: c.strangerProxy.pem, key: c.strangerProxy.keyPem, headers: { [proxyUserHeader]: 'proxy-with' }, token: 'token-with-0123456789abcdef' })).status, 200, 'a proxy CN not allowed, then a good token');
      assert.equal((await list({ ...proxy, token: 'token-with-0123456789abcdef' })).status, 200, 'the proxy\'s certificate without a user header, then a good token');
    }
    // The proxy's certificate alone, with no user header: the proxy has no opinion, the client CA
    // refuses the certificate, and that error is the answer (anonymous is only for no credentials).
    await assertUnauthorized(c, { cert: c.proxy.pem, key: c.proxy.keyPem }, 'the proxy\'s certificate without a user header');
  });

  await t.test('malformed and unknown bearer tokens are 401s; a webhook answering authenticated:false is a 401', async () => {
    await assertUnauthorized(c, { token: 'a.b.c' }, 'Bearer a.b.c');
    await assertUnauthorized(c, { token: randomBytes(48).toString('base64url') }, 'Bearer <random bytes>');
    await assertUnauthorized(c, { token: 'eyJhbGciOiJSUzI1NiJ9.eyJ9.x' }, 'a JWT whose payload is not JSON');
    const asked = c.webhook.asked.length;
    await assertUnauthorized(c, { token: 'webhook-token-nobody' }, 'a token the webhook answers authenticated:false');
    assert.ok(c.webhook.asked.slice(asked).includes('webhook-token-nobody'), 'the webhook was asked and said no');
  });

  await t.test('credentials kube ignores leave the request anonymous (403, not 401)', async () => {
    await assertAnonymous(c, { headers: { [proxyUserHeader]: 'proxy-with', 'X-Remote-Group': 'system:masters' } }, 'proxy headers without a client certificate');
    await assertAnonymous(c, { headers: { authorization: `Basic ${Buffer.from('token-with:token-with-0123456789abcdef').toString('base64')}` } }, 'Basic credentials');
    await assertAnonymous(c, { headers: { authorization: 'Bearer' } }, 'a Bearer with no token');
    // The scheme's case does not matter to kube's bearer authenticator: this is token-with.
    assert.equal((await callReplica(c.cluster, 2, configmaps, { headers: { authorization: 'bearer token-with-0123456789abcdef' } })).status, 200);
  });
  await t.test('a legacy service-account-token Secret gets a token that authenticates as the account', async () => {
    await created(c, `/api/v1/namespaces/${namespace}/secrets`, {
      apiVersion: 'v1', kind: 'Secret', type: 'kubernetes.io/service-account-token',
      metadata: { name: 'sa-with-legacy', annotations: { 'kubernetes.io/service-account.name': 'sa-with' } },
    });
    let token = '';
    await eventually('data.token is filled', async () => {
      const secret = JSON.parse((await admin(c, `/api/v1/namespaces/${namespace}/secrets/sa-with-legacy`, {}, 1)).body) as { data?: { token?: string } };
      token = Buffer.from(secret.data?.token ?? '', 'base64').toString('utf8');
      return token !== '';
    }, 5_000);
    assert.equal((await callReplica(c.cluster, 2, configmaps, { token })).status, 200);
  });

  await t.test('a token webhook that cannot be reached is a 401 for the tokens only it knows; the other authenticators go on', async () => {
    await new Promise<void>((resolve) => {
      c.webhook.server.close(() => resolve());
      c.webhook.server.closeAllConnections();
    });
    // Never asked before, so no replica has an answer cached.
    c.webhook.users.set('webhook-token-unreachable', 'webhook-with');
    await assertUnauthorized(c, { token: 'webhook-token-unreachable' }, 'a webhook token while the webhook is down');
    assert.equal((await callReplica(c.cluster, 1, configmaps, { token: 'token-with-0123456789abcdef' })).status, 200, 'a token-file token');
    assert.equal((await callReplica(c.cluster, 2, configmaps, { token: await idToken(c.oidc, { claims: { sub: 'oidc-with' } }) })).status, 200, 'an OIDC token');
  });
});
