import { test } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'node:http2';
import { startTestServer, testToken } from './harness.ts';

test('the server speaks HTTP/2 (and HTTP/1.1, used by the other tests) over TLS', async (t) => {
  const s = await startTestServer();
  const session = connect(s.baseUrl, { ca: s.tls.cert });
  t.after(async () => {
    session.close();
    await s.close();
  });
  const { status, body } = await new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = session.request({ ':path': '/api/v1/namespaces/default', authorization: `Bearer ${testToken}` });
    let status = 0;
    let body = '';
    req.on('response', (headers) => (status = Number(headers[':status'])));
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => resolve({ status, body }));
    req.on('error', reject);
    req.end();
  });
  assert.equal(status, 200);
  assert.equal((JSON.parse(body) as { kind: string }).kind, 'Namespace');
});
