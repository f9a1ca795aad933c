// The authentication filter on the TLS server, over HTTP/1.1 and HTTP/2: the client certificate
// is asked for and verified by the authenticators (not TLS), proxy headers count only with the
// proxy's certificate and are removed otherwise, an invalid credential is a 401 on every path.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:http2';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildAuthenticator, defaultAuthenticationOptions } from '../../../internal/authn/index.ts';
import { makeCa, makeCertificate, type TestCertificate } from '../authn/fixtures/test-pki.ts';
import { startTestServer, type TestServer } from './harness.ts';

let s: TestServer;
let dir: string;
let users: TestCertificate;
let proxy: TestCertificate;
let stranger: TestCertificate;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'orch-authn-filter-'));
  const userCa = await makeCa('user-ca');
  const proxyCa = await makeCa('proxy-ca');
  users = await makeCertificate({ commonName: 'carol', organizations: ['team-a'], issuer: userCa });
  proxy = await makeCertificate({ commonName: 'front-proxy-client', issuer: proxyCa });
  stranger = await makeCertificate({ commonName: 'mallory', organizations: ['system:masters'], issuer: await makeCa('other-ca') });
  writeFileSync(join(dir, 'users.crt'), userCa.pem);
  writeFileSync(join(dir, 'proxy.crt'), proxyCa.pem);
  const authentication = await buildAuthenticator({
    ...defaultAuthenticationOptions(),
    clientCaFile: join(dir, 'users.crt'),
    requestHeader: { clientCaFile: join(dir, 'proxy.crt'), usernameHeaders: ['X-Remote-User'], groupHeaders: ['X-Remote-Group'], extraHeadersPrefixes: [], allowedNames: [] },
  });
  s = await startTestServer({ authentication });
});

after(async () => {
  await s.close();
  rmSync(dir, { recursive: true, force: true });
});

interface Answer {
  readonly status: number;
  readonly message: string;
}

function messageOf(body: string): string {
  try {
    return (JSON.parse(body) as { message?: string }).message ?? '';
  } catch {
    return body;
  }
}

function http1(path: string, headers: Record<string, string>, cert?: TestCertificate): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(`${s.baseUrl}${path}`, { ca: s.tls.cert, headers, agent: false, ...(cert ? { cert: cert.pem, key: cert.keyPem } : {}) }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, message: messageOf(body) }));
    });
    req.on('error', reject);
    req.end();
  });
}

function http2(path: string, headers: Record<string, string>, cert?: TestCertificate): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const session = connect(s.baseUrl, { ca: s.tls.cert, ...(cert ? { cert: cert.pem, key: cert.keyPem } : {}) });
    session.on('error', reject);
    const stream = session.request({ ':path': path, ...headers });
    let status = 0;
    let body = '';
    stream.on('response', (h) => (status = Number(h[':status'])));
    stream.on('data', (c: Buffer) => (body += c.toString()));
    stream.on('end', () => {
      session.close();
      resolve({ status, message: messageOf(body) });
    });
    stream.on('error', reject);
  });
}

const pods = '/api/v1/namespaces/default/pods';
const forbidden = (user: string) => `pods is forbidden: User "${user}" cannot list resource "pods" in API group "" in the namespace "default"`;

for (const [name, send] of [['HTTP/1.1', http1], ['HTTP/2', http2]] as const) {
  test(`${name}: a client certificate of --client-ca-file is its CN; another CA's is a 401; none is anonymous`, async () => {
    assert.deepEqual(await send(pods, {}, users), { status: 403, message: forbidden('carol') });
    assert.deepEqual(await send(pods, {}, stranger), { status: 401, message: 'Unauthorized' });
    assert.deepEqual(await send(pods, {}), { status: 403, message: forbidden('system:anonymous') });
  });

  test(`${name}: proxy headers need the proxy's certificate; a user's certificate or none leaves them ignored`, async () => {
    const headers = { 'x-remote-user': 'bob', 'x-remote-group': 'system:masters' };
    assert.equal((await send(pods, headers, proxy)).status, 200);
    assert.deepEqual(await send(pods, { 'x-remote-user': 'bob' }, proxy), { status: 403, message: forbidden('bob') });
    assert.deepEqual(await send(pods, headers, users), { status: 403, message: forbidden('carol') });
    assert.deepEqual(await send(pods, headers), { status: 403, message: forbidden('system:anonymous') });
  });

  test(`${name}: an invalid bearer token is a 401 on health, /version and resources alike`, async () => {
    for (const path of ['/healthz', '/readyz?verbose', '/livez', '/version', pods]) {
      assert.deepEqual(await send(path, { authorization: 'Bearer nope' }), { status: 401, message: 'Unauthorized' }, path);
    }
    assert.equal((await send('/healthz', {})).status, 200);
  });
}
