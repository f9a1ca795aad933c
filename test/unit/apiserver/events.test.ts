// One Event store served at core/v1 and events.k8s.io/v1, with kube-apiserver's field mapping: an
// Event written through either API is read, listed, selected and watched through both.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'undici';
import { startTestServer, testToken, type TestServer } from './harness.ts';

let s: TestServer;
before(async () => {
  s = await startTestServer();
});
after(() => s.close());

type Json = Record<string, unknown>;
const corePath = '/api/v1/namespaces/default/events';
const eventsPath = '/apis/events.k8s.io/v1/namespaces/default/events';
const eventTime = '2026-11-26T10:00:00.000000Z';

const structured = (name: string): Json => ({
  apiVersion: 'events.k8s.io/v1', kind: 'Event', metadata: { name },
  eventTime, reportingController: 'example.com/ctl', reportingInstance: 'ctl-1', action: 'Create', reason: 'Created', note: 'made it', type: 'Normal',
  regarding: { kind: 'Pod', namespace: 'default', name: 'p1' },
});

const legacy = (name: string): Json => ({
  apiVersion: 'v1', kind: 'Event', metadata: { name },
  involvedObject: { kind: 'Pod', namespace: 'default', name: 'p2' }, reason: 'Pulled', message: 'pulled the image', type: 'Normal',
  source: { component: 'kubelet', host: 'n1' }, count: 3, firstTimestamp: '2026-11-26T10:00:00Z', lastTimestamp: '2026-11-26T10:05:00Z',
});

test('an events.k8s.io Event reads back through core/v1 with the fields mapped, at the same resourceVersion', async () => {
  const created = await s.client.call('POST', eventsPath, { body: structured('e1') });
  assert.equal(created.status, 201, created.text);
  const core = (await s.client.call('GET', `${corePath}/e1`)).json as Json;
  assert.equal(core.apiVersion, 'v1');
  assert.deepEqual(core.involvedObject, { kind: 'Pod', namespace: 'default', name: 'p1' });
  assert.equal(core.message, 'made it');
  assert.equal(core.reportingComponent, 'example.com/ctl');
  assert.equal(core.reportingInstance, 'ctl-1');
  assert.equal(core.eventTime, eventTime);
  assert.equal(core.regarding, undefined);
  assert.equal((core.metadata as Json).resourceVersion, ((created.json as Json).metadata as Json).resourceVersion);
});

test('a core/v1 Event reads back through events.k8s.io/v1 with its deprecated fields', async () => {
  assert.equal((await s.client.call('POST', corePath, { body: legacy('e2') })).status, 201);
  const event = (await s.client.call('GET', `${eventsPath}/e2`)).json as Json;
  assert.equal(event.apiVersion, 'events.k8s.io/v1');
  assert.deepEqual(event.regarding, { kind: 'Pod', namespace: 'default', name: 'p2' });
  assert.equal(event.note, 'pulled the image');
  assert.deepEqual(event.deprecatedSource, { component: 'kubelet', host: 'n1' });
  assert.equal(event.deprecatedCount, 3);
  assert.equal(event.deprecatedFirstTimestamp, '2026-11-26T10:00:00Z');
  assert.equal(event.involvedObject, undefined);
});

test('both lists hold the Events of both APIs, and field selectors use each version\'s names', async () => {
  const names = async (path: string): Promise<string[]> => ((await s.client.call('GET', path)).json as { items: { metadata: { name: string } }[] }).items.map((i) => i.metadata.name).sort();
  assert.deepEqual(await names(corePath), ['e1', 'e2']);
  assert.deepEqual(await names(eventsPath), ['e1', 'e2']);
  assert.deepEqual(await names(`${corePath}?fieldSelector=involvedObject.name%3Dp1`), ['e1']);
  assert.deepEqual(await names(`${eventsPath}?fieldSelector=regarding.name%3Dp2`), ['e2']);
  assert.deepEqual(await names(`${eventsPath}?fieldSelector=reportingController%3Dexample.com/ctl`), ['e1']);
});

test('a core/v1 watch sees an Event written through events.k8s.io/v1, in core/v1 form', async () => {
  const list = (await s.client.call('GET', corePath)).json as { metadata: { resourceVersion: string } };
  const controller = new AbortController();
  const res = await request(`${s.baseUrl}${corePath}?watch=1&resourceVersion=${list.metadata.resourceVersion}`, { dispatcher: (s.client as unknown as { agent: never }).agent, headers: { authorization: `Bearer ${testToken}` }, signal: controller.signal });
  try {
    assert.equal((await s.client.call('POST', eventsPath, { body: structured('e3') })).status, 201);
    let text = '';
    for await (const chunk of res.body) {
      text += Buffer.from(chunk as Uint8Array).toString('utf8');
      if (text.includes('\n')) break;
    }
    const event = JSON.parse(text.slice(0, text.indexOf('\n'))) as { type: string; object: Json };
    assert.equal(event.type, 'ADDED');
    assert.equal(event.object.apiVersion, 'v1');
    assert.equal(event.object.message, 'made it');
    assert.equal((event.object.metadata as Json).name, 'e3');
  } finally {
    controller.abort();
  }
});

test('deleting through one API removes the Event from both', async () => {
  assert.equal((await s.client.call('DELETE', `${corePath}/e1`)).status, 200);
  assert.equal((await s.client.call('GET', `${eventsPath}/e1`)).status, 404);
});

test('both APIs print an Event in kube-apiserver\'s one table: Last Seen from the last timestamp, else the first, else eventTime', async () => {
  assert.equal((await s.client.call('POST', '/api/v1/namespaces', { body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'printed' } } })).status, 201);
  const old = { firstTimestamp: '2020-01-01T00:00:00Z', lastTimestamp: '2021-01-01T00:00:00Z' };
  assert.equal((await s.client.call('POST', '/api/v1/namespaces/printed/events', { body: { ...legacy('a-core'), ...old } })).status, 201);
  assert.equal((await s.client.call('POST', '/apis/events.k8s.io/v1/namespaces/printed/events', { body: { ...structured('b-structured'), eventTime: '2019-01-01T00:00:00.000000Z' } })).status, 201);
  const table = async (path: string) => (await s.client.call('GET', `${path}?includeObject=None`, { headers: { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' } })).json as { columnDefinitions: { name: string; priority: number }[]; rows: { cells: unknown[] }[] };
  const core = await table('/api/v1/namespaces/printed/events');
  const structuredTable = await table('/apis/events.k8s.io/v1/namespaces/printed/events');
  assert.deepEqual(structuredTable, core);
  assert.deepEqual(core.columnDefinitions.map((c) => `${c.name}/${c.priority}`), ['Last Seen/0', 'Type/0', 'Reason/0', 'Object/0', 'Subobject/1', 'Source/1', 'Message/0', 'First Seen/1', 'Count/1', 'Name/1']);
  const sinceYear = (year: number) => `${Math.floor((Date.now() - Date.UTC(year, 0, 1)) / 86_400_000 / 365)}y`;
  const [coreRow, structuredRow] = core.rows.map((r) => r.cells);
  assert.deepEqual(coreRow?.slice(1), ['Normal', 'Pulled', 'pod/p2', '', 'kubelet, n1', 'pulled the image', coreRow?.[7], 3, 'a-core']);
  assert.ok(String(coreRow?.[0]).startsWith(sinceYear(2021)) && String(coreRow?.[7]).startsWith(sinceYear(2020)), JSON.stringify(coreRow));
  assert.deepEqual(structuredRow?.slice(1), ['Normal', 'Created', 'pod/p1', '', 'example.com/ctl, ctl-1', 'made it', structuredRow?.[0], 1, 'b-structured']);
  assert.ok(String(structuredRow?.[0]).startsWith(sinceYear(2019)), JSON.stringify(structuredRow));
});

test("an events.k8s.io/v1 create takes a Go client's empty deprecated fields, and refuses set ones by their internal names", async () => {
  const goZeros = { ...structured('e-go-zeros'), deprecatedSource: {}, deprecatedCount: 0, deprecatedFirstTimestamp: null, deprecatedLastTimestamp: null };
  const created = await s.client.call('POST', eventsPath, { body: goZeros });
  assert.equal(created.status, 201, created.text);
  const set = { ...structured('e-set'), deprecatedSource: { component: 'kubelet' }, deprecatedCount: 2, deprecatedFirstTimestamp: '2026-11-26T10:00:00Z' };
  const refused = await s.client.call('POST', eventsPath, { body: set });
  assert.equal(refused.status, 422, refused.text);
  const causes = ((refused.json as Json).details as { causes: { field: string; message: string }[] }).causes;
  assert.deepEqual(causes.map((c) => c.field), ['firstTimestamp', 'count', 'source']);
  assert.ok(causes.every((c) => c.message === 'Invalid value: "": needs to be unset'), JSON.stringify(causes));
});
