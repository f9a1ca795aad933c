// A watcher that stops reading must not make the server buffer every later event for it: the watch
// handler writes only while the connection takes data, the store queues the rest (bounded), and the
// watcher is dropped once it falls that far behind, as kube-apiserver drops an unresponsive one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { connect, constants, type ClientHttp2Stream } from 'node:http2';
import { openLocalStorage } from '../../../internal/storage/open-local-storage.ts';
import { RawClient, type Protocol, type RawWatch } from '../../support/raw-client.ts';
import { startTestServer, testToken, type TestServer } from './harness.ts';

const cmPath = '/api/v1/namespaces/default/configmaps';
const protocols = ['http/1.1', 'h2'] as const satisfies readonly Protocol[];
/** Large enough that a few of them fill every socket buffer on the way. */
const valueBytes = 512 * 1024;

/** What a stalled-watcher test changes: the server's stall timeout, and objects created before the watch opens. */
interface StallSetup {
  readonly stallMs?: number;
  readonly before?: (s: TestServer) => Promise<void>;
}

/**
 * A server whose store queues at most `eventsMax` events for a watcher, and a watch on it that reads
 * nothing until `resume()`: a client that stalls.
 */
async function withStalledWatcher(protocol: Protocol, eventsMax: number, body: (s: TestServer, stalled: RawWatch, resume: () => void) => Promise<void>, setup: StallSetup = {}): Promise<void> {
  const storage = await openLocalStorage({ dataDir: ':memory:', watchBufferEventsMax: eventsMax });
  const s = await startTestServer({ storage, ...(setup.stallMs === undefined ? {} : { watchStallTimeoutMs: setup.stallMs }) });
  const client = new RawClient(s.baseUrl, s.tls.cert, testToken, protocol);
  let resume!: () => void;
  const readAfter = new Promise<void>((resolve) => (resume = resolve));
  try {
    await setup.before?.(s);
    const stalled = await client.watch(`${cmPath}?watch=1`, { readAfter });
    assert.equal(stalled.status, 200);
    await body(s, stalled, resume);
    stalled.close();
  } finally {
    resume();
    client.close();
    await s.close();
    await storage.close();
  }
}

async function createBig(s: TestServer, names: readonly string[]): Promise<void> {
  const value = 'x'.repeat(valueBytes);
  for (const name of names) {
    const created = await s.client.call('POST', cmPath, { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { v: value } } });
    assert.equal(created.status, 201);
  }
}

const names = (prefix: string, count: number): string[] => Array.from({ length: count }, (_, i) => `${prefix}-${i}`);
/** The stall timeout of the server in the stall test. */
const stallMs = 300;

for (const protocol of protocols) {
  test(`a watcher that stops reading is dropped once 10 events behind instead of buffered without bound (${protocol})`, () =>
    withStalledWatcher(protocol, 10, async (s, stalled, resume) => {
      // 30 MiB: several times what the socket buffers on the way hold (loopback ones grow to tens of MiB).
      const written = names('big', 60);
      await createBig(s, written);
      resume();
      // Dropped: the stream ends without the later events. Buffered: every event arrives and the stream stays open.
      const outcome = await Promise.race([stalled.ended.then(() => 'ended'), new Promise((r) => setTimeout(() => r('still open'), 10_000).unref())]);
      assert.equal(outcome, 'ended', `the stalled watcher was not dropped; it received ${stalled.events.length} of ${written.length} events`);
      assert.ok(stalled.events.length < written.length, `received all ${written.length} events: the server buffered them`);
      // The events that did arrive are whole and in order.
      assert.deepEqual(stalled.events.map((e) => e.object.metadata?.name), written.slice(0, stalled.events.length));
      // Another watcher is unaffected.
      const client = new RawClient(s.baseUrl, s.tls.cert, testToken, protocol);
      try {
        const healthy = await client.watch(`${cmPath}?watch=1&resourceVersion=0`);
        assert.equal((await healthy.next(written.length, 20_000)).length, written.length);
        healthy.close();
      } finally {
        client.close();
      }
    }));

  test(`a watcher that stalls within the bound, then reads again, gets every event in order and stays open (${protocol})`, () =>
    withStalledWatcher(protocol, 50, async (s, paused, resume) => {
      const written = names('held', 20);
      await createBig(s, written);
      resume();
      const events = await paused.next(written.length, 20_000);
      assert.deepEqual(events.map((e) => [e.type, e.object.metadata?.name]), written.map((name) => ['ADDED', name]));
      // Still live: a later change arrives too.
      await s.client.call('POST', cmPath, { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'after' } } });
      assert.equal((await paused.next(1))[0]?.object.metadata?.name, 'after');
    }));
}

for (const protocol of protocols) {
  test(`a watcher whose client takes nothing for the stall time is dropped, with no new event to overflow the store's queue (${protocol})`, () =>
    withStalledWatcher(protocol, 1000, async (_, stalled, resume) => {
      // Its initial objects (20 x 512 KiB) wait for it: more than the sockets on the way hold. Ten
      // times the stall time later the client reads again, and finds its watch already ended.
      await new Promise((r) => setTimeout(r, 10 * stallMs));
      resume();
      const outcome = await Promise.race([stalled.ended.then(() => 'ended'), new Promise((r) => setTimeout(() => r('still open'), 10_000).unref())]);
      assert.equal(outcome, 'ended', 'the stalled watcher was not dropped');
      assert.ok(stalled.events.length < 20, `received all ${stalled.events.length} initial events`);
    }, { stallMs, before: (s) => createBig(s, names('initial', 20)) }));
}

/** An HTTP/2 watch read at a steady pace: at most 64 KiB every `everyMs`. */
async function pacedWatch(s: TestServer, query: string, everyMs: number): Promise<{ stream: ClientHttp2Stream; received: () => Buffer; stop(): void }> {
  const session = connect(s.baseUrl, { ca: s.tls.cert });
  session.on('error', () => undefined);
  const stream = session.request({ [constants.HTTP2_HEADER_PATH]: `${cmPath}?${query}`, authorization: `Bearer ${testToken}` });
  stream.on('error', () => undefined);
  stream.pause();
  const chunks: Buffer[] = [];
  const pace = setInterval(() => {
    let taken = 0;
    for (let chunk: Buffer | null; taken < 64 * 1024 && (chunk = stream.read() as Buffer | null) !== null;) {
      chunks.push(chunk);
      taken += chunk.length;
    }
  }, everyMs);
  return {
    stream,
    received: () => Buffer.concat(chunks),
    stop: () => {
      clearInterval(pace);
      session.destroy();
    },
  };
}

test('a client reading a large event slowly but steadily is not dropped: the stall time counts per piece', { timeout: 30_000 }, () =>
  withStalledWatcher('h2', 1000, async (s, _, resume) => {
    resume();
    await createBig(s, ['large']); // 512 KiB: eight pieces, read one per 150 ms
    const paced = await pacedWatch(s, 'watch=1&resourceVersion=0', 150);
    try {
      const deadline = Date.now() + 20_000;
      while (!paced.received().includes(0x0a) && !paced.stream.closed && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      assert.equal(paced.stream.closed, false, 'the watch was dropped');
      const line = paced.received().toString('utf8');
      assert.equal((JSON.parse(line.slice(0, line.indexOf('\n'))) as { object: { metadata: { name: string } } }).object.metadata.name, 'large');
    } finally {
      paced.stop();
    }
  }, { stallMs: 500 }));

test('a watch whose timeoutSeconds passes while a large event is under way ends normally, the event whole', { timeout: 30_000 }, () =>
  withStalledWatcher('h2', 1000, async (s, _, resume) => {
    resume();
    await createBig(s, ['large']);
    const paced = await pacedWatch(s, 'watch=1&resourceVersion=0&timeoutSeconds=1', 250);
    try {
      const outcome = await Promise.race([new Promise((r) => paced.stream.once('close', () => r('closed'))), new Promise((r) => setTimeout(() => r('still open'), 20_000).unref())]);
      assert.equal(outcome, 'closed');
      assert.equal(paced.stream.rstCode, constants.NGHTTP2_NO_ERROR);
      const lines = paced.received().toString('utf8').split('\n').filter((l) => l !== '');
      assert.deepEqual(lines.map((l) => (JSON.parse(l) as { object: { metadata: { name: string } } }).object.metadata.name), ['large']);
    } finally {
      paced.stop();
    }
  }));
