// What a client cannot hold on to: a request body it never finishes, more than 100 streams on one
// HTTP/2 connection, and a connection it keeps open without using it.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { connect, constants, type ClientHttp2Session } from 'node:http2';
import { connect as tlsConnect } from 'node:tls';
import { startTestServer, testToken, type TestServer } from './harness.ts';

const bodyTimeoutMs = 300;
/** Long enough that opening a watch right after connecting beats it on a loaded machine. */
const idleMs = 1500;
const cmPath = '/api/v1/namespaces/default/configmaps';
/** A test that waits for something the server never does fails after this long instead of hanging. */
const testTimeoutMs = 15_000;

let s: TestServer;
before(async () => {
  s = await startTestServer({ requestBodyTimeoutMs: bodyTimeoutMs, idleConnectionTimeoutMs: idleMs });
});
after(() => s.close());

function h2Session(): Promise<ClientHttp2Session> {
  const session = connect(s.baseUrl, { ca: s.tls.cert });
  session.on('error', () => undefined);
  return new Promise((resolve, reject) => {
    session.once('remoteSettings', () => resolve(session));
    session.once('error', reject);
  });
}

function closed(session: ClientHttp2Session): Promise<void> {
  return session.closed ? Promise.resolve() : new Promise((resolve) => session.once('close', () => resolve()));
}

test('a request body that stops arriving is answered 408 once its time is up and its stream cancelled (HTTP/2); the server goes on', { timeout: testTimeoutMs }, async () => {
  const session = await h2Session();
  try {
    const stream = session.request({ [constants.HTTP2_HEADER_METHOD]: 'POST', [constants.HTTP2_HEADER_PATH]: cmPath, authorization: `Bearer ${testToken}`, 'content-type': 'application/json' });
    stream.on('error', () => undefined);
    stream.write('{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"never-fin'); // and nothing more
    const status = await new Promise<number>((resolve) => stream.on('response', (headers) => resolve(Number(headers[constants.HTTP2_HEADER_STATUS]))));
    assert.equal(status, 408);
    stream.resume();
    // The server ends the exchange (the client never did): its stream slot is free again.
    await new Promise((resolve) => stream.once('close', resolve));
    assert.equal(stream.rstCode, constants.NGHTTP2_CANCEL);
  } finally {
    session.close();
  }
  assert.equal((await s.client.call('GET', cmPath)).status, 200);
});

test('a request body that stops arriving is answered 408 once its time is up and its connection closed (HTTP/1.1)', { timeout: testTimeoutMs }, async () => {
  const socket = tlsConnect({ host: '127.0.0.1', port: Number(new URL(s.baseUrl).port), ca: s.tls.cert, ALPNProtocols: ['http/1.1'], servername: 'localhost' });
  try {
    await new Promise<void>((resolve, reject) => socket.once('secureConnect', resolve).once('error', reject));
    socket.write(`POST ${cmPath} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${testToken}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"apiVersion":`);
    const head = await new Promise<string>((resolve, reject) => {
      socket.once('data', (chunk: Buffer) => resolve(chunk.toString('latin1')));
      socket.once('error', reject);
    });
    assert.match(head, /^HTTP\/1\.1 408 /);
    // What the client sends next on it would be taken for the rest of that body.
    assert.match(head, /\r\nConnection: close\r\n/i);
    socket.resume();
    await new Promise((resolve) => socket.once('close', resolve));
  } finally {
    socket.destroy();
  }
});

test('an HTTP/2 connection may open at most 100 streams at once', { timeout: testTimeoutMs }, async () => {
  const session = await h2Session();
  try {
    assert.equal(session.remoteSettings.maxConcurrentStreams, 100);
  } finally {
    session.close();
  }
});

test('an idle HTTP/2 connection is closed; one with a quiet watch open is not', { timeout: testTimeoutMs }, async () => {
  const watching = await h2Session();
  const watch = watching.request({ [constants.HTTP2_HEADER_PATH]: `${cmPath}?watch=1&timeoutSeconds=60`, authorization: `Bearer ${testToken}` });
  const watchAnswered = new Promise((resolve) => watch.once('response', resolve));
  watch.resume();
  const idle = await h2Session();
  try {
    await watchAnswered;
    const get = idle.request({ [constants.HTTP2_HEADER_PATH]: cmPath, authorization: `Bearer ${testToken}` });
    get.resume();
    await new Promise((resolve) => get.once('close', resolve));
    await closed(idle);
    await new Promise((resolve) => setTimeout(resolve, 3 * idleMs));
    assert.equal(watching.closed, false, 'a connection with an open watch is not idle');
    watch.close();
    await closed(watching);
  } finally {
    idle.destroy();
    watching.destroy();
  }
});

test('an idle HTTP/1.1 keep-alive connection is closed', { timeout: testTimeoutMs }, async () => {
  const socket = tlsConnect({ host: '127.0.0.1', port: Number(new URL(s.baseUrl).port), ca: s.tls.cert, ALPNProtocols: ['http/1.1'], servername: 'localhost' });
  try {
    await new Promise<void>((resolve, reject) => socket.once('secureConnect', resolve).once('error', reject));
    socket.write(`GET /livez HTTP/1.1\r\nHost: x\r\n\r\n`);
    socket.resume();
    await new Promise<void>((resolve) => socket.once('close', () => resolve()));
  } finally {
    socket.destroy();
  }
});
