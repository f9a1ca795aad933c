// Custom resources converted through a real conversion webhook: an HTTPS server with its own CA
// (trusted through the CRD's caBundle) that renames spec.cronSpec (v1) to spec.schedule (v2). The
// reviews it receives, and every way its answer can be wrong, each refused in kube's words as a 500.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { createServer as createHttpsServer, type Server } from 'node:https';
import { createServer as createTcpServer, type AddressInfo, type Socket } from 'node:net';
import { ConversionError, makeConverter, type ConverterDeps } from '../../../internal/registry/apiextensions/conversion/index.ts';
import { makeCa, makeCertificate } from '../../unit/authn/fixtures/test-pki.ts';

type Entry = Record<string, unknown>;

/** A review as received, with the path and query it came on. */
interface Received {
  readonly url: string;
  readonly review: Entry & { request: { uid: string; desiredAPIVersion: string; objects: Entry[] } };
}

/** Answers a review: the whole body, a status and raw body, or 'never' to hold the request. */
type Handler = (review: Received['review']) => Entry | { status: number; raw: string } | 'never';

interface ConversionWebhook {
  readonly caBundle: string;
  readonly port: number;
  readonly received: Received[];
  handle(handler: Handler): void;
}

/** The honest webhook: each object at the desired version, cronSpec renamed to schedule. */
function convertAll(review: Received['review']): Entry {
  const convertedObjects = review.request.objects.map((o) => {
    const { cronSpec, ...rest } = (o.spec ?? {}) as Entry;
    return { ...o, apiVersion: review.request.desiredAPIVersion, spec: { ...rest, schedule: cronSpec } };
  });
  return { apiVersion: review.apiVersion, kind: 'ConversionReview', response: { uid: review.request.uid, result: { status: 'Success' }, convertedObjects } };
}

/** Starts a webhook on 127.0.0.1 whose certificate also names `conv.default.svc`; closed after the test. */
async function startConversionWebhook(t: TestContext): Promise<ConversionWebhook> {
  const ca = await makeCa('test-conversion-webhook-ca');
  const serving = await makeCertificate({ commonName: 'conv', issuer: ca, usages: ['server'], dnsNames: ['localhost', 'conv.default.svc'], ipAddresses: ['127.0.0.1'] });
  const received: Received[] = [];
  let handler: Handler = convertAll;
  const sockets = new Set<Socket>();
  const server: Server = createHttpsServer({ cert: serving.pem, key: serving.keyPem }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const review = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Received['review'];
      received.push({ url: req.url ?? '', review });
      const answer = handler(review);
      if (answer === 'never') return;
      const raw = 'raw' in answer && typeof answer.raw === 'string' ? answer : undefined;
      res.writeHead(raw === undefined ? 200 : Number(raw.status), { 'content-type': 'application/json' });
      res.end(raw === undefined ? JSON.stringify(answer) : raw.raw);
    });
  });
  server.on('secureConnection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise<void>((resolve) => {
    for (const socket of sockets) socket.destroy();
    server.close(() => resolve());
  }));
  return {
    caBundle: Buffer.from(ca.pem).toString('base64'),
    port: (server.address() as AddressInfo).port,
    received,
    handle: (h) => void (handler = h),
  };
}

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createTcpServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

function crd(clientConfig: Entry, conversionReviewVersions: string[] = ['v1']): Entry {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'crontabs.stable.example.com' },
    spec: {
      group: 'stable.example.com',
      names: { kind: 'CronTab', plural: 'crontabs' },
      scope: 'Namespaced',
      versions: [{ name: 'v1', served: true, storage: true }, { name: 'v2', served: true, storage: false }],
      conversion: { strategy: 'Webhook', webhook: { clientConfig, conversionReviewVersions } },
    },
  };
}

function crontab(name: string, apiVersion = 'stable.example.com/v1'): Entry {
  return { apiVersion, kind: 'CronTab', metadata: { name, namespace: 'default', uid: `uid-${name}`, resourceVersion: '5', labels: { app: name } }, spec: { cronSpec: '*/5 * * * *', image: 'img' } };
}

const v2 = 'stable.example.com/v2';

test('a v1 object is converted to v2 through the webhook, trusted by its caBundle', async (t) => {
  const hook = await startConversionWebhook(t);
  const converter = makeConverter(crd({ url: `https://127.0.0.1:${hook.port}/convert`, caBundle: hook.caBundle }));
  const original = crontab('a');
  const [converted] = await converter.convert([original], v2);
  assert.deepEqual(converted, { ...original, apiVersion: v2, spec: { image: 'img', schedule: '*/5 * * * *' } });
  assert.equal(hook.received.length, 1);
  const { url, review } = hook.received[0] as Received;
  assert.equal(url, '/convert?timeout=30s');
  assert.equal(review.apiVersion, 'apiextensions.k8s.io/v1');
  assert.equal(review.kind, 'ConversionReview');
  assert.match(review.request.uid, /^[0-9a-f-]{36}$/);
  assert.equal(review.request.desiredAPIVersion, v2);
  assert.deepEqual(review.request.objects, [original]);
});

test('a list goes in one review, without the items already at the version', async (t) => {
  const hook = await startConversionWebhook(t);
  const converter = makeConverter(crd({ url: `https://127.0.0.1:${hook.port}/convert`, caBundle: hook.caBundle }));
  const already = crontab('b', v2);
  const out = await converter.convert([crontab('a'), already, crontab('c')], v2);
  assert.equal(hook.received.length, 1);
  assert.deepEqual(hook.received[0]?.review.request.objects.map((o) => (o.metadata as Entry).name), ['a', 'c']);
  assert.deepEqual(out.map((o) => [(o.metadata as Entry).name, o.apiVersion]), [['a', v2], ['b', v2], ['c', v2]]);
  assert.equal(out[1], already);
  await converter.convert([already], v2);
  assert.equal(hook.received.length, 1, 'nothing to convert: no call');
});

test('a service webhook is dialled where the resolver says, under its service name', async (t) => {
  const hook = await startConversionWebhook(t);
  const asked: unknown[] = [];
  const deps: ConverterDeps = { resolveService: (namespace, name, port) => (asked.push([namespace, name, port]), { host: '127.0.0.1', port: hook.port }) };
  const converter = makeConverter(crd({ service: { namespace: 'default', name: 'conv', path: '/crontabs', port: 8443 }, caBundle: hook.caBundle }), deps);
  const [converted] = await converter.convert([crontab('a')], v2);
  assert.equal(converted?.apiVersion, v2);
  assert.deepEqual(asked, [['default', 'conv', 8443]]);
  assert.equal(hook.received[0]?.url, '/crontabs?timeout=30s');
});

test('a CRD that speaks only v1beta1 gets a v1beta1 review', async (t) => {
  const hook = await startConversionWebhook(t);
  const converter = makeConverter(crd({ url: `https://127.0.0.1:${hook.port}/convert`, caBundle: hook.caBundle }, ['v1beta1', 'v1']));
  await converter.convert([crontab('a')], v2);
  assert.equal(hook.received[0]?.review.apiVersion, 'apiextensions.k8s.io/v1beta1');
});

/** Converts through a webhook answering with `handler`, expecting a 500 with `message`. */
async function refused(t: TestContext, handler: Handler, objects: Entry[], message: string | RegExp, deps: ConverterDeps = {}): Promise<void> {
  const hook = await startConversionWebhook(t);
  hook.handle(handler);
  const converter = makeConverter(crd({ url: `https://127.0.0.1:${hook.port}/convert`, caBundle: hook.caBundle }), deps);
  await assert.rejects(converter.convert(objects, v2), (err: unknown) => {
    assert.ok(err instanceof ConversionError, String(err));
    assert.equal(err.code, 500);
    if (typeof message === 'string') assert.equal(err.message, message);
    else assert.match(err.message, message);
    return true;
  });
}

test('an answer for another uid is refused', async (t) => {
  await refused(t, (review) => ({ ...convertAll(review), response: { ...(convertAll(review).response as Entry), uid: 'wrong' } }), [crontab('a')], /^conversion webhook for stable\.example\.com\/v1, Kind=CronTab failed: expected response\.uid="[0-9a-f-]{36}", got "wrong"$/);
});

test('an answer with fewer objects than sent is refused', async (t) => {
  await refused(t, (review) => {
    const answer = convertAll(review);
    const response = answer.response as Entry;
    return { ...answer, response: { ...response, convertedObjects: (response.convertedObjects as Entry[]).slice(1) } };
  }, [crontab('a'), crontab('b')], 'conversion webhook for stable.example.com/v1, Kind=CronTabList returned 1 objects, expected 2');
});

test('an object whose metadata.name changed is refused; other metadata is put back, labels kept', async (t) => {
  const rename = (review: Received['review']): Entry => {
    const answer = convertAll(review);
    const response = answer.response as Entry;
    return { ...answer, response: { ...response, convertedObjects: (response.convertedObjects as Entry[]).map((o) => ({ ...o, metadata: { ...(o.metadata as Entry), name: 'renamed' } })) } };
  };
  await refused(t, rename, [crontab('a')], 'conversion webhook for stable.example.com/v1, Kind=CronTab returned invalid object: must have the same name: a != renamed');
  await refused(t, rename, [crontab('a'), crontab('b')], 'conversion webhook for stable.example.com/v1, Kind=CronTabList returned invalid converted object at index 1: must have the same name: a != renamed');

  const hook = await startConversionWebhook(t);
  hook.handle((review) => {
    const answer = convertAll(review);
    const response = answer.response as Entry;
    return { ...answer, response: { ...response, convertedObjects: (response.convertedObjects as Entry[]).map((o) => ({ ...o, metadata: { ...(o.metadata as Entry), resourceVersion: '999', labels: { app: 'relabelled' } } })) } };
  });
  const [converted] = await makeConverter(crd({ url: `https://127.0.0.1:${hook.port}/convert`, caBundle: hook.caBundle })).convert([crontab('a')], v2);
  assert.deepEqual(converted?.metadata, { name: 'a', namespace: 'default', uid: 'uid-a', resourceVersion: '5', labels: { app: 'relabelled' } });
});

test('an object of the wrong version or kind is refused', async (t) => {
  const rewrite = (patch: Entry) => (review: Received['review']): Entry => {
    const answer = convertAll(review);
    const response = answer.response as Entry;
    return { ...answer, response: { ...response, convertedObjects: (response.convertedObjects as Entry[]).map((o) => ({ ...o, ...patch })) } };
  };
  await refused(t, rewrite({ apiVersion: 'stable.example.com/v1' }), [crontab('a')], 'conversion webhook for stable.example.com/v1, Kind=CronTab returned invalid object at index 0: invalid groupVersion (expected stable.example.com/v2, received stable.example.com/v1)');
  await refused(t, rewrite({ kind: 'Other' }), [crontab('a')], 'conversion webhook for stable.example.com/v1, Kind=CronTab returned invalid object at index 0: invalid kind (expected CronTab, received Other)');
});

test('a failed result, a failed HTTP answer and a non-JSON answer are refused with their reason', async (t) => {
  await refused(t, (review) => ({ ...convertAll(review), response: { uid: review.request.uid, result: { status: 'Failure', message: 'spec.cronSpec is malformed' } } }), [crontab('a')], 'conversion webhook for stable.example.com/v1, Kind=CronTab failed: spec.cronSpec is malformed');
  await refused(t, () => ({ status: 503, raw: 'down' }), [crontab('a')], 'conversion webhook for stable.example.com/v1, Kind=CronTab failed: the server is currently unable to handle the request');
  await refused(t, () => ({ status: 200, raw: 'not json' }), [crontab('a')], /^conversion webhook for stable\.example\.com\/v1, Kind=CronTab failed: couldn't get version\/kind; json parse error: /);
});

test('an unreachable webhook is refused with Go\'s dial error', async () => {
  const port = await closedPort();
  const converter = makeConverter(crd({ url: `https://127.0.0.1:${port}/convert` }));
  await assert.rejects(converter.convert([crontab('a')], v2), {
    name: 'ConversionError',
    message: `conversion webhook for stable.example.com/v1, Kind=CronTab failed: Post "https://127.0.0.1:${port}/convert?timeout=30s": dial tcp 127.0.0.1:${port}: connect: connection refused`,
  });
});

test('a webhook whose certificate the caBundle does not trust is refused', async (t) => {
  const hook = await startConversionWebhook(t);
  const converter = makeConverter(crd({ url: `https://127.0.0.1:${hook.port}/convert` }));
  await assert.rejects(converter.convert([crontab('a')], v2), { message: `conversion webhook for stable.example.com/v1, Kind=CronTab failed: Post "https://127.0.0.1:${hook.port}/convert?timeout=30s": tls: failed to verify certificate: x509: certificate signed by unknown authority` });
  assert.equal(hook.received.length, 0);
});

test('a webhook that never answers fails at the deadline', async (t) => {
  const hook = await startConversionWebhook(t);
  hook.handle(() => 'never');
  const converter = makeConverter(crd({ url: `https://127.0.0.1:${hook.port}/convert`, caBundle: hook.caBundle }), { timeoutMs: 300 });
  await assert.rejects(converter.convert([crontab('a')], v2), { message: `conversion webhook for stable.example.com/v1, Kind=CronTab failed: Post "https://127.0.0.1:${hook.port}/convert?timeout=300ms": context deadline exceeded` });
});

test('a service the resolver cannot place is refused with the resolver\'s reason', async (t) => {
  const hook = await startConversionWebhook(t);
  const deps: ConverterDeps = {
    resolveService: () => {
      throw new Error('service "conv" not found');
    },
  };
  const converter = makeConverter(crd({ service: { namespace: 'default', name: 'conv', port: 443 }, caBundle: hook.caBundle }), deps);
  await assert.rejects(converter.convert([crontab('a')], v2), { message: 'conversion webhook for stable.example.com/v1, Kind=CronTab failed: Post "https://conv.default.svc:443/?timeout=30s": service "conv" not found' });
});
