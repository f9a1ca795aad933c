// Custom resources through the HTTP API of one in-process server with the CRD controllers running:
// a definition becomes served once established; its objects are defaulted, pruned, validated by
// schema and rules, listed as tables, discovered, described in OpenAPI, scaled, and removed with it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, testToken, type TestServer } from './harness.ts';
import { createCrdNamingController } from '../../../internal/controllers/apiextensions/crd-naming-controller.ts';
import { createCrdFinalizerController } from '../../../internal/controllers/apiextensions/crd-finalizer-controller.ts';

const crdPath = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';

function widgetCrd(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'widgets.example.com' },
    spec: {
      group: 'example.com', scope: 'Namespaced',
      names: { plural: 'widgets', singular: 'widget', kind: 'Widget', shortNames: ['wd'] },
      versions: [{
        name: 'v1', served: true, storage: true,
        subresources: { status: {}, scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.status.selector' } },
        additionalPrinterColumns: [{ name: 'Size', type: 'integer', jsonPath: '.spec.size' }],
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: {
              spec: {
                type: 'object',
                'x-kubernetes-validations': [{ rule: 'self.size <= 10', message: 'size is at most 10' }],
                properties: { size: { type: 'integer', default: 3 }, replicas: { type: 'integer' }, color: { type: 'string', enum: ['red', 'blue'] } },
              },
              status: { type: 'object', properties: { replicas: { type: 'integer' }, selector: { type: 'string' } } },
            },
          },
        },
      }],
      ...extra,
    },
  };
}

async function eventually(what: string, check: () => Promise<boolean>, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

test('a CustomResourceDefinition serves its kind through the generic machinery', async (t) => {
  const started: { server?: TestServer; abort?: AbortController } = {};
  t.after(async () => {
    started.abort?.abort();
    await started.server?.close();
  });
  const s = await startTestServer();
  started.server = s;
  const abort = new AbortController();
  started.abort = abort;
  const deps = { registry: s.server.registry, stores: s.server.stores, log: () => undefined };
  void createCrdNamingController(deps).run(abort.signal);
  void createCrdFinalizerController(deps).run(abort.signal);
  const c = s.client;
  const widgets = '/apis/example.com/v1/namespaces/default/widgets';

  const created = await c.call('POST', crdPath, { body: widgetCrd() });
  assert.equal(created.status, 201, created.text);
  await eventually('established and served', async () => (await c.call('GET', widgets)).status === 200);
  const crd = (await c.call('GET', `${crdPath}/widgets.example.com`)).json as { status: { acceptedNames: Record<string, unknown>; storedVersions: string[]; conditions: { type: string; status: string }[] } };
  assert.deepEqual(crd.status.storedVersions, ['v1']);
  assert.equal(crd.status.acceptedNames.kind, 'Widget');
  assert.ok(crd.status.conditions.some((x) => x.type === 'Established' && x.status === 'True'));

  await t.test('create defaults and prunes; get and list read it back', async () => {
    const res = await c.call('POST', widgets, { body: { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w1' }, spec: { replicas: 1, extra: true } } });
    assert.equal(res.status, 201, res.text);
    const body = res.json as { spec: Record<string, unknown>; metadata: { generation: number } };
    assert.deepEqual(body.spec, { replicas: 1, size: 3 });
    assert.equal(body.metadata.generation, 1);
    const strict = await c.call('POST', `${widgets}?fieldValidation=Strict`, { body: { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w2' }, spec: { extra: true } } });
    assert.equal(strict.status, 400);
    assert.match(strict.text, /unknown field \\"spec.extra\\"/);
  });

  await t.test('schema and rule errors are one 422 with kube\'s causes', async () => {
    const rule = await c.call('POST', widgets, { body: { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'big' }, spec: { size: 11 } } });
    assert.equal(rule.status, 422, rule.text);
    assert.match((rule.json as { message: string }).message, /^Widget.example.com "big" is invalid: spec: Invalid value: "object": size is at most 10$/);
    const enumErr = await c.call('POST', widgets, { body: { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'green' }, spec: { color: 'green' } } });
    assert.equal(enumErr.status, 422, enumErr.text);
    assert.match(enumErr.text, /spec.color: Unsupported value: \\"green\\": supported values: \\"red\\", \\"blue\\"/);
  });

  await t.test('status and scale sub-resources; generation counts spec changes only', async () => {
    const status = await c.call('PATCH', `${widgets}/w1/status`, { body: { status: { replicas: 1, selector: 'app=w' } }, contentType: 'application/merge-patch+json' });
    assert.equal(status.status, 200, status.text);
    assert.equal((status.json as { metadata: { generation: number } }).metadata.generation, 1);
    const scale = await c.call('GET', `${widgets}/w1/scale`);
    assert.deepEqual((scale.json as { spec: unknown; status: unknown }).spec, { replicas: 1 });
    assert.deepEqual((scale.json as { status: unknown }).status, { replicas: 1, selector: 'app=w' });
    const scaled = await c.call('PATCH', `${widgets}/w1/scale`, { body: { spec: { replicas: 4 } }, contentType: 'application/merge-patch+json' });
    assert.equal(scaled.status, 200, scaled.text);
    const w1 = (await c.call('GET', `${widgets}/w1`)).json as { spec: { replicas: number }; metadata: { generation: number } };
    assert.equal(w1.spec.replicas, 4);
    assert.equal(w1.metadata.generation, 2);
  });

  await t.test('tables, discovery, OpenAPI and strategic merge patch refusal', async () => {
    const table = await c.call('GET', widgets, { headers: { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' } });
    const t1 = table.json as { columnDefinitions: { name: string }[]; rows: { cells: unknown[] }[] };
    assert.deepEqual(t1.columnDefinitions.map((d) => d.name), ['Name', 'Size']);
    assert.deepEqual(t1.rows[0]?.cells, ['w1', 3]);
    const discovery = (await c.call('GET', '/apis/example.com/v1')).json as { resources: { name: string; shortNames?: string[] }[] };
    assert.deepEqual(discovery.resources.map((r) => r.name).sort(), ['widgets', 'widgets/scale', 'widgets/status']);
    const openapi = (await c.call('GET', '/openapi/v3/apis/example.com/v1')).json as { components: { schemas: Record<string, unknown> } };
    assert.ok('com.example.v1.Widget' in openapi.components.schemas);
    const smp = await c.call('PATCH', `${widgets}/w1`, { body: { spec: { size: 4 } }, contentType: 'application/strategic-merge-patch+json' });
    assert.equal(smp.status, 415);
  });

  await t.test('deleting the definition removes its objects, stops serving the kind and ends its watches', async () => {
    const watch = fetchWatch(s, `${widgets}?watch=true`);
    await watch.first(1);
    const deleted = await c.call('DELETE', `${crdPath}/widgets.example.com`);
    // Terminating with the cleanup finalizer: the generic delete's answer for an object kept by finalizers.
    assert.equal(deleted.status, 202, deleted.text);
    assert.deepEqual((deleted.json as { metadata: { finalizers: string[] } }).metadata.finalizers, ['customresourcecleanup.apiextensions.k8s.io']);
    await eventually('definition gone', async () => (await c.call('GET', `${crdPath}/widgets.example.com`)).status === 404);
    await eventually('kind no longer served', async () => (await c.call('GET', widgets)).status === 404);
    const left = await s.storage.list({ prefix: '/@example.com/widgets/' });
    assert.equal(left.items.length, 0);
    await watch.ended;
  });
});

/** A conversion webhook between v1 (`spec.size`) and v2 (`spec.dimensions.size`), over HTTPS with the test certificate. */
async function startConversionWebhook(tls: { cert: string; key: string }): Promise<{ url: string; reviews: () => number; close: () => Promise<void> }> {
  const { createServer } = await import('node:https');
  let reviews = 0;
  const convert = (obj: Record<string, unknown>, to: string): Record<string, unknown> => {
    const spec = (obj.spec ?? {}) as Record<string, unknown>;
    if (to === 'example.com/v2') return { ...obj, apiVersion: to, spec: { dimensions: { size: spec.size } } };
    return { ...obj, apiVersion: to, spec: { size: (spec.dimensions as Record<string, unknown> | undefined)?.size } };
  };
  const server = createServer({ cert: tls.cert, key: tls.key }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      reviews++;
      const review = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { request: { uid: string; desiredAPIVersion: string; objects: Record<string, unknown>[] } };
      const convertedObjects = review.request.objects.map((o) => convert(o, review.request.desiredAPIVersion));
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ apiVersion: 'apiextensions.k8s.io/v1', kind: 'ConversionReview', response: { uid: review.request.uid, result: { status: 'Success' }, convertedObjects } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return { url: `https://127.0.0.1:${port}/convert`, reviews: () => reviews, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

test('a CustomResourceDefinition converting by webhook stores at the storage version and serves each version through the webhook', async (t) => {
  const started: { server?: TestServer; abort?: AbortController; webhook?: { close: () => Promise<void> } } = {};
  t.after(async () => {
    started.abort?.abort();
    await started.server?.close();
    await started.webhook?.close();
  });
  const s = await startTestServer();
  started.server = s;
  const webhook = await startConversionWebhook(s.tls);
  started.webhook = webhook;
  const abort = new AbortController();
  started.abort = abort;
  void createCrdNamingController({ registry: s.server.registry, stores: s.server.stores, log: () => undefined }).run(abort.signal);
  const c = s.client;
  const schema = (spec: Record<string, unknown>) => ({ openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: spec } } } });
  const crd = {
    apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'boxes.example.com' },
    spec: {
      group: 'example.com', scope: 'Namespaced', names: { plural: 'boxes', kind: 'Box' },
      versions: [
        { name: 'v1', served: true, storage: false, schema: schema({ size: { type: 'integer' } }) },
        { name: 'v2', served: true, storage: true, schema: schema({ dimensions: { type: 'object', properties: { size: { type: 'integer' } } } }) },
      ],
      conversion: { strategy: 'Webhook', webhook: { conversionReviewVersions: ['v1'], clientConfig: { url: webhook.url, caBundle: Buffer.from(s.tls.cert).toString('base64') } } },
    },
  };
  const created = await c.call('POST', crdPath, { body: crd });
  assert.equal(created.status, 201, created.text);
  const v1 = '/apis/example.com/v1/namespaces/default/boxes';
  const v2 = '/apis/example.com/v2/namespaces/default/boxes';
  await eventually('served', async () => (await c.call('GET', v1)).status === 200);
  const watch = fetchWatch(s, `${v1}?watch=true`);

  const made = await c.call('POST', v1, { body: { apiVersion: 'example.com/v1', kind: 'Box', metadata: { name: 'b1' }, spec: { size: 7 } } });
  assert.equal(made.status, 201, made.text);
  assert.deepEqual((made.json as { apiVersion: string; spec: unknown }).spec, { size: 7 });
  const raw = await s.storage.get('/@example.com/boxes/default/b1');
  const stored = JSON.parse(Buffer.from(raw?.value ?? new Uint8Array()).toString('utf8')) as { apiVersion: string; spec: unknown };
  assert.equal(stored.apiVersion, 'example.com/v2');
  assert.deepEqual(stored.spec, { dimensions: { size: 7 } });
  const asV2 = (await c.call('GET', `${v2}/b1`)).json as { apiVersion: string; spec: unknown };
  assert.deepEqual([asV2.apiVersion, asV2.spec], ['example.com/v2', { dimensions: { size: 7 } }]);
  const patched = await c.call('PATCH', `${v1}/b1`, { body: { spec: { size: 8 } }, contentType: 'application/merge-patch+json' });
  assert.equal(patched.status, 200, patched.text);
  assert.deepEqual((patched.json as { spec: unknown }).spec, { size: 8 });
  const list = (await c.call('GET', v1)).json as { items: { apiVersion: string; spec: unknown }[] };
  assert.deepEqual(list.items.map((i) => [i.apiVersion, i.spec]), [['example.com/v1', { size: 8 }]]);
  const events = await watch.first(2);
  assert.deepEqual(events.map((e) => [e.type, e.object.apiVersion, e.object.spec]), [['ADDED', 'example.com/v1', { size: 7 }], ['MODIFIED', 'example.com/v1', { size: 8 }]]);
  watch.stop();
  assert.ok(webhook.reviews() >= 5);

  // A webhook that is gone fails the request in kube's words (500), never storing an unconverted object.
  await webhook.close();
  const refused = await c.call('POST', v1, { body: { apiVersion: 'example.com/v1', kind: 'Box', metadata: { name: 'b2' }, spec: { size: 1 } } });
  assert.equal(refused.status, 500, refused.text);
  assert.match(refused.text, /conversion webhook for example.com\/v1, Kind=Box failed/);
  assert.equal(await s.storage.get('/@example.com/boxes/default/b2'), null);
});

/** A watch read as a stream of JSON lines, through the test client's certificate. */
function fetchWatch(s: TestServer, path: string): { first(n: number): Promise<{ type: string; object: Record<string, unknown> }[]>; stop(): void; readonly ended: Promise<void> } {
  const controller = new AbortController();
  const lines: { type: string; object: Record<string, unknown> }[] = [];
  const done = (async () => {
    const { request, Agent } = await import('undici');
    const res = await request(`${s.baseUrl}${path}`, { dispatcher: new Agent({ connect: { ca: s.tls.cert } }), headers: { authorization: `Bearer ${testToken}` }, signal: controller.signal });
    let buffer = '';
    for await (const chunk of res.body) {
      buffer += chunk.toString();
      let at: number;
      while ((at = buffer.indexOf('\n')) >= 0) {
        lines.push(JSON.parse(buffer.slice(0, at)) as { type: string; object: Record<string, unknown> });
        buffer = buffer.slice(at + 1);
      }
    }
  })().catch(() => undefined);
  return {
    async first(n) {
      await eventually(`${n} watch events`, () => Promise.resolve(lines.length >= n));
      return lines.slice(0, n);
    },
    stop() {
      controller.abort();
      void done;
    },
    ended: done,
  };
}
