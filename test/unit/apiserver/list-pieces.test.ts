import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { after, before, describe, it, test } from 'node:test';
import { gunzipSync, gzipSync } from 'node:zlib';
import { Agent, request } from 'undici';
import { listPiecesPageItems } from '../../../internal/apiserver/limits.ts';
import { Responder, type RawResponse } from '../../../internal/apiserver/respond.ts';
import { encodeObject } from '../../../internal/registry/generic/codec.ts';
import { objectKey } from '../../../internal/registry/generic/keys.ts';
import { ResourceRegistry } from '../../../internal/registry/resource-registry.ts';
import { badRequest, StatusError } from '../../../internal/registry/errors/status-error.ts';
import { startTestServer, testToken, type TestServer } from './harness.ts';

const configMaps = new ResourceRegistry('k8s.io').resources.find((r) => r.decl.plural === 'configmaps' && r.group === '');
const count = listPiecesPageItems * 2 + 5;
const path = '/api/v1/namespaces/default/configmaps';
const views: Record<string, string> = {
  object: 'application/json',
  table: 'application/json;as=Table;v=v1;g=meta.k8s.io',
  metadata: 'application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io',
};

/** A GET's raw answer: the body's bytes as sent (no decompression) and the headers. */
async function rawGet(ts: TestServer, agent: Agent, target: string, headers: Record<string, string>): Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }> {
  const res = await request(`${ts.baseUrl}${target}`, { dispatcher: agent, headers: { authorization: `Bearer ${testToken}`, ...headers } });
  return { status: res.statusCode, headers: res.headers, body: Buffer.from(await res.body.arrayBuffer()) };
}

describe('a LIST of more than a page, written item by item', () => {
  let ts: TestServer;
  let agent: Agent;

  before(async () => {
    ts = await startTestServer();
    agent = new Agent({ connect: { ca: ts.tls.cert } });
    assert.ok(configMaps);
    // Written to the store directly: many objects, fast. Old creation times keep Table ages stable.
    for (let i = 0; i < count; i++) {
      const name = `cm-${String(i).padStart(5, '0')}`;
      const metadata = { name, namespace: 'default', uid: `uid-${i}`, creationTimestamp: '2020-01-01T00:00:00Z', labels: { parity: i % 2 === 0 ? 'even' : 'odd' } };
      await ts.storage.create(objectKey(configMaps.decl, 'default', name), encodeObject({ apiVersion: 'v1', kind: 'ConfigMap', metadata, data: { v: `value "${i}" ü` } }));
    }
  });
  after(async () => {
    await agent.close();
    await ts.close();
  });

  for (const [view, accept] of Object.entries(views)) {
    it(`answers the ${view} view with the bytes of the whole answer, in chunks without a Content-Length`, async () => {
      const streamed = await rawGet(ts, agent, path, { accept });
      const whole = await rawGet(ts, agent, `${path}?limit=${count * 2}`, { accept });
      assert.equal(streamed.status, 200);
      assert.equal(whole.status, 200);
      assert.equal(streamed.headers['content-length'], undefined);
      assert.equal(streamed.headers['transfer-encoding'], 'chunked');
      assert.equal(streamed.headers['content-type'], 'application/json');
      assert.ok(streamed.body.equals(whole.body), `${view}: the streamed body differs from the whole one`);
      const parsed = JSON.parse(streamed.body.toString('utf8')) as { items?: unknown[]; rows?: unknown[] };
      assert.equal((parsed.items ?? parsed.rows)?.length, count);
    });
  }

  const protobufViews: Record<string, string> = {
    object: 'application/vnd.kubernetes.protobuf',
    metadata: 'application/vnd.kubernetes.protobuf;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io',
  };
  for (const [view, accept] of Object.entries(protobufViews)) {
    it(`answers the Protobuf ${view} view, encoded a page at a time, with the bytes of the whole answer`, async () => {
      const paged = await rawGet(ts, agent, path, { accept });
      const whole = await rawGet(ts, agent, `${path}?limit=${count * 2}`, { accept });
      assert.equal(paged.status, 200);
      assert.equal(whole.status, 200);
      assert.equal(paged.headers['content-type'], 'application/vnd.kubernetes.protobuf');
      assert.ok(paged.body.equals(whole.body), `Protobuf ${view}: the paged body differs from the whole one`);
      const gzipped = await rawGet(ts, agent, path, { accept, 'accept-encoding': 'gzip' });
      assert.ok(gunzipSync(gzipped.body).equals(whole.body), `Protobuf ${view}: the gzipped body differs from the whole one`);
    });
  }

  it('keeps label and field selectors, and the resourceVersion of the list', async () => {
    const rv = JSON.parse((await rawGet(ts, agent, `${path}?limit=1`, {})).body.toString()) as { metadata: { resourceVersion: string } };
    for (const query of ['labelSelector=parity%3Deven', 'fieldSelector=metadata.name!%3Dcm-00001', `resourceVersion=${rv.metadata.resourceVersion}`, 'resourceVersion=0']) {
      const streamed = await rawGet(ts, agent, `${path}?${query}`, {});
      const whole = await rawGet(ts, agent, `${path}?${query}&limit=${count * 2}`, {});
      assert.equal(streamed.status, 200, query);
      assert.ok(streamed.body.equals(whole.body), `${query}: the streamed body differs from the whole one`);
    }
    const even = JSON.parse((await rawGet(ts, agent, `${path}?labelSelector=parity%3Deven`, {})).body.toString()) as { items: unknown[] };
    assert.equal(even.items.length, Math.ceil(count / 2));
  });

  it('continues a chunked list from a client token to its end', async () => {
    const page = JSON.parse((await rawGet(ts, agent, `${path}?limit=3`, {})).body.toString()) as { metadata: { continue: string } };
    const rest = await rawGet(ts, agent, `${path}?continue=${encodeURIComponent(page.metadata.continue)}`, {});
    const restWhole = await rawGet(ts, agent, `${path}?continue=${encodeURIComponent(page.metadata.continue)}&limit=${count * 2}`, {});
    assert.ok(rest.body.equals(restWhole.body));
    assert.equal((JSON.parse(rest.body.toString()) as { items: unknown[] }).items.length, count - 3);
  });

  it('gzips the pieces into the same bytes as the whole body gzipped', async () => {
    const streamed = await rawGet(ts, agent, path, { 'accept-encoding': 'gzip' });
    const whole = await rawGet(ts, agent, `${path}?limit=${count * 2}`, {});
    assert.equal(streamed.headers['content-encoding'], 'gzip');
    assert.ok(gunzipSync(streamed.body).equals(whole.body));
    assert.ok(streamed.body.equals(gzipSync(whole.body)), 'same deflate stream as gzipSync of the whole body');
  });

  it('sends the same bytes over HTTP/2', async () => {
    const h2 = new Agent({ connect: { ca: ts.tls.cert }, allowH2: true });
    try {
      const streamed = await rawGet(ts, h2, path, {});
      const whole = await rawGet(ts, agent, `${path}?limit=${count * 2}`, {});
      assert.equal(streamed.status, 200);
      assert.ok(streamed.body.equals(whole.body));
    } finally {
      await h2.close();
    }
  });

  it('answers a list that fits in one page whole, with its Content-Length', async () => {
    const one = await rawGet(ts, agent, `${path}?labelSelector=parity%3Dnone`, {});
    assert.equal(one.status, 200);
    assert.equal(one.headers['content-length'], String(one.body.length));
  });

  it('keeps the errors of a list: a bad selector is still a 400', async () => {
    const bad = await rawGet(ts, agent, `${path}?labelSelector=%3D%3D%3D`, {});
    assert.equal(bad.status, 400);
  });
});

/** A response that takes nothing until `drain()` is called: every write is buffered. */
class SlowResponse extends EventEmitter {
  statusCode = 0;
  headersSent = false;
  written: string[] = [];
  ended = false;
  destroyed = false;
  setHeader(): void {
    this.headersSent = false;
  }
  write(chunk: string | Uint8Array): boolean {
    this.headersSent = true;
    this.written.push(String(chunk));
    return false;
  }
  end(): void {
    this.ended = true;
    this.emit('close');
  }
  destroy(): void {
    this.destroyed = true;
    this.emit('close');
  }
  drain(): void {
    this.emit('drain');
  }
}

async function* countedPages(read: { pages: number }, total: number, failAt?: number): AsyncGenerator<readonly unknown[]> {
  for (let p = 0; p < total; p++) {
    if (p === failAt) throw badRequest('gone mid-way');
    read.pages += 1;
    // Each page one piece's worth (64 KiB of JSON), so each page is one write.
    yield [{ fill: 'x'.repeat(64 * 1024) }];
  }
}

test('a body in pieces reads its next page only once the client took the last piece', async () => {
  const { jsonArrayDocument } = await import('../../../internal/apiserver/handlers/list-pieces.ts');
  const raw = new SlowResponse();
  const out = new Responder(raw as unknown as RawResponse, { format: 'json', pretty: false, gzip: false });
  const read = { pages: 0 };
  const sent = out.sendPieces(200, 'application/json', jsonArrayDocument({ kind: 'List' }, 'items', countedPages(read, 5), (o) => o));
  for (let taken = 1; taken <= 5; taken++) {
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(read.pages, taken, `pages read while ${taken - 1} writes were taken`);
    raw.drain();
  }
  await new Promise((resolve) => setImmediate(resolve));
  raw.drain();
  await sent;
  assert.equal(raw.ended, true);
  const body = JSON.parse(raw.written.join('')) as { kind: string; items: unknown[] };
  assert.equal(body.kind, 'List');
  assert.equal(body.items.length, 5);
});

test('a body that fails after its headers is cut, not ended as if whole', async () => {
  const { jsonArrayDocument } = await import('../../../internal/apiserver/handlers/list-pieces.ts');
  const raw = new SlowResponse();
  raw.write = function (chunk) {
    this.headersSent = true;
    this.written.push(String(chunk));
    return true;
  };
  const out = new Responder(raw as unknown as RawResponse, { format: 'json', pretty: false, gzip: false });
  await assert.rejects(out.sendPieces(200, 'application/json', jsonArrayDocument({ kind: 'List' }, 'items', countedPages({ pages: 0 }, 5, 2), (o) => o)), StatusError);
  assert.equal(raw.destroyed, true);
  out.sendError(badRequest('too late'));
  assert.equal(raw.ended, false, 'the error answer leaves the cut body cut');
});
