import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { OrchClient, type OrchClientOptions } from '../../../internal/client/client.ts';
import { ApiError, UnavailableError, UnknownOutcomeError } from '../../../internal/client/errors.ts';
import { startFakeCluster, fastClock } from './fake-api.ts';
import { createServer } from 'node:net';

async function closedPortUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

async function withCluster(count: number, body: (c: Awaited<ReturnType<typeof startFakeCluster>>, client: (extra?: Partial<OrchClientOptions>) => OrchClient) => Promise<void>): Promise<void> {
  const cluster = await startFakeCluster(count);
  const clients: OrchClient[] = [];
  try {
    await body(cluster, (extra = {}) => {
      const client = new OrchClient({ servers: cluster.replicas.map((r) => r.url), clock: fastClock, ...extra });
      clients.push(client);
      return client;
    });
  } finally {
    await Promise.all(clients.map((c) => c.close()));
    await cluster.stop();
  }
}

const object = (name: string, extra: Record<string, unknown> = {}) => ({ metadata: { name }, data: extra });

test('round-robin spreads reads evenly over the endpoints', async () => {
  await withCluster(3, async ({ store, replicas }, make) => {
    store.write('ADDED', object('a'));
    const client = make();
    for (let i = 0; i < 6; i += 1) await client.get('/things/a');
    assert.deepEqual(replicas.map((r) => r.requests.length), [2, 2, 2]);
  });
});

test('a 503 endpoint is ejected and reads go to the others', async () => {
  await withCluster(3, async ({ store, replicas }, make) => {
    store.write('ADDED', object('a'));
    replicas[0]!.faults = { status: 503 };
    const client = make();
    for (let i = 0; i < 6; i += 1) assert.equal(((await client.get('/things/a')) as { metadata: { name: string } }).metadata.name, 'a');
    assert.equal(replicas[0]!.requests.length, 1, 'ejected after its first 503');
    assert.equal(client.balancer.endpoints[0]!.state, 'ejected');
  });
});

test('reads and writes fail over when a connection is refused', async () => {
  await withCluster(1, async ({ store, replicas }, make) => {
    const client = make({ servers: [await closedPortUrl(), replicas[0]!.url] });
    await client.create('/things', object('a'));
    assert.equal(store.history.length, 1);
    await client.get('/things/a');
    await client.get('/things/a');
    assert.equal(client.balancer.endpoints[0]!.state, 'ejected');
  });
});

test('a create whose connection breaks after it was sent fails with UnknownOutcomeError and is not retried', async () => {
  await withCluster(2, async ({ store, replicas }, make) => {
    for (const r of replicas) r.faults = { dropAfterApply: 1 };
    const client = make();
    await assert.rejects(client.create('/things', object('a')), UnknownOutcomeError);
    assert.equal(store.history.length, 1, 'applied once');
    assert.equal(replicas.flatMap((r) => r.requests).filter((r) => r.method === 'POST').length, 1);
  });
});

test('a compare-and-swap PUT is retried after an unknown outcome and succeeds when the first try did not apply', async () => {
  await withCluster(2, async ({ store, replicas }, make) => {
    const stored = store.write('ADDED', object('a'));
    replicas[0]!.faults = { dropBeforeApply: 1 };
    const client = make();
    const updated = (await client.update('/things/a', { ...stored, data: { v: 2 } })) as { metadata: { resourceVersion: string } };
    assert.equal(updated.metadata.resourceVersion, '2');
  });
});

test('a compare-and-swap PUT that applied and then met 409 on retry surfaces UnknownOutcomeError carrying the 409', async () => {
  await withCluster(2, async ({ store, replicas }, make) => {
    const stored = store.write('ADDED', object('a'));
    replicas[0]!.faults = { dropAfterApply: 1 };
    const client = make();
    const error = await client.update('/things/a', { ...stored, data: { v: 2 } }).then(() => undefined, (e: unknown) => e);
    assert.ok(error instanceof UnknownOutcomeError);
    assert.ok(error.cause instanceof ApiError && error.cause.status === 409);
    assert.equal(store.rv, 2);
  });
});

test('a write answered 503 is retried on another endpoint and applied once', async () => {
  await withCluster(2, async ({ store, replicas }, make) => {
    replicas[0]!.faults = { status: 503 };
    await make().create('/things', object('a'));
    assert.equal(store.history.length, 1);
  });
});

test('a 504 is retried for a read but is an unknown outcome for a plain write', async () => {
  await withCluster(2, async ({ store, replicas }, make) => {
    store.write('ADDED', object('a'));
    replicas[0]!.faults = { status: 504 };
    const client = make();
    await client.get('/things/a');
    assert.equal(replicas[0]!.requests.length, 1, 'the read met the 504 first');
    for (const r of replicas) r.faults = { status: 504 };
    await assert.rejects(client.create('/things', object('b')), UnknownOutcomeError);
    assert.equal(replicas.flatMap((r) => r.requests).filter((r) => r.method === 'POST').length, 1, 'not retried');
  });
});

test('an API error is typed and not retried', async () => {
  await withCluster(2, async ({ replicas }, make) => {
    const error = await make().get('/things/missing').then(() => undefined, (e: unknown) => e);
    assert.ok(error instanceof ApiError);
    assert.equal(error.status, 404);
    assert.equal(error.reason, 'NotFound');
    assert.equal(replicas[0]!.requests.length + replicas[1]!.requests.length, 1);
  });
});

test('a write that no endpoint accepted fails with UnavailableError', async () => {
  await withCluster(2, async ({ store, replicas }, make) => {
    for (const r of replicas) r.faults = { status: 503 };
    await assert.rejects(make({ requestAttemptsMax: 3 }).create('/things', object('a')), UnavailableError);
    assert.equal(store.history.length, 0);
  });
});

test('an ejected endpoint comes back after a successful /readyz probe', async () => {
  await withCluster(2, async ({ store, replicas }, make) => {
    store.write('ADDED', object('a'));
    let nowMs = 1_000_000;
    const client = make({ clock: { ...fastClock, now: () => nowMs } });
    replicas[0]!.faults = { status: 503 };
    await client.get('/things/a');
    await client.get('/things/a');
    const first = client.balancer.endpoints[0]!;
    assert.equal(first.state, 'ejected');
    replicas[0]!.faults = {};
    nowMs += 60_000;
    await client.get('/things/a');
    for (let i = 0; i < 50 && (first.state as string) !== 'healthy'; i += 1) await new Promise((r) => setTimeout(r, 10));
    assert.equal(first.state, 'healthy');
    assert.ok(replicas[0]!.requests.some((r) => r.url === '/readyz'));
  });
});

function selfSigned(dir: string, name: string, commonName: string): { key: string; cert: string } {
  const key = join(dir, `${name}.key`);
  const cert = join(dir, `${name}.crt`);
  execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', key, '-out', cert, '-days', '1', '-subj', `/CN=${commonName}`, '-addext', 'subjectAltName=IP:127.0.0.1'], { stdio: 'ignore' });
  return { key: readFileSync(key, 'utf8'), cert: readFileSync(cert, 'utf8') };
}

test('TLS with a CA from PEM, and either a bearer token or a client certificate', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'orch-client-tls-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const server = selfSigned(dir, 'server', '127.0.0.1');
  const user = selfSigned(dir, 'user', 'alice');
  const cluster = await startFakeCluster(1, { ...server, ca: user.cert, requestCert: true, rejectUnauthorized: false });
  const url = cluster.replicas[0]!.url;
  const withToken = new OrchClient({ servers: [url], caPem: server.cert, token: 'secret', clock: fastClock });
  const withCert = new OrchClient({ servers: [url], caPem: server.cert, clientCertPem: user.cert, clientKeyPem: user.key, clock: fastClock });
  const untrusting = new OrchClient({ servers: [url], clock: fastClock, requestAttemptsMax: 1 });
  try {
    cluster.store.write('ADDED', object('a'));
    await withToken.get('/things/a');
    await withCert.get('/things/a');
    const [first, second] = cluster.replicas[0]!.requests;
    assert.equal(first!.authorization, 'Bearer secret');
    assert.equal(second!.clientCommonName, 'alice');
    await assert.rejects(untrusting.get('/things/a'), UnavailableError, 'a server outside the CA is not trusted');
  } finally {
    await Promise.all([withToken.close(), withCert.close(), untrusting.close()]);
    await cluster.stop();
  }
});
