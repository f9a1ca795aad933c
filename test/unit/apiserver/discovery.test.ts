import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'undici';
import { Gauge, Registry } from 'prom-client';
import { RawClient } from '../../support/raw-client.ts';
import { startTestServer, testToken, type TestServer } from './harness.ts';

let s: TestServer;
let quorumOk = true;
const registry = new Registry();
before(async () => {
  s = await startTestServer({
    apiDomain: 'orch.dev',
    metricsRegistry: registry,
    healthChecks: {
      'raft-quorum': () => {
        if (!quorumOk) throw new Error('no quorum');
      },
    },
  });
});
after(() => s.close());

type Json = Record<string, unknown>;

test('/api, /apis and group-version resource lists derive from the declarations under the API domain', async () => {
  const api = (await s.client.call('GET', '/api')).json as Json;
  assert.equal(api.kind, 'APIVersions');
  assert.deepEqual(api.versions, ['v1']);
  const apis = (await s.client.call('GET', '/apis')).json as { groups: { name: string; preferredVersion: { groupVersion: string } }[] };
  assert.deepEqual(apis.groups.map((g) => g.name).sort(), ['apps', 'coordination.orch.dev', 'events.orch.dev']);
  const core = (await s.client.call('GET', '/api/v1')).json as { groupVersion: string; resources: Json[] };
  assert.equal(core.groupVersion, 'v1');
  const pods = core.resources.find((r) => r.name === 'pods');
  assert.deepEqual(pods, { name: 'pods', singularName: 'pod', namespaced: true, kind: 'Pod', verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'], shortNames: ['po'], categories: ['all'] });
  assert.ok(core.resources.find((r) => r.name === 'pods/status'));
  assert.deepEqual(core.resources.find((r) => r.name === 'namespaces/finalize'), { name: 'namespaces/finalize', singularName: '', namespaced: false, kind: 'Namespace', verbs: ['update'] });
  const apps = (await s.client.call('GET', '/apis/apps/v1')).json as { resources: Json[] };
  assert.deepEqual(apps.resources.find((r) => r.name === 'deployments/scale'), { name: 'deployments/scale', singularName: '', namespaced: true, group: 'autoscaling', version: 'v1', kind: 'Scale', verbs: ['get', 'patch', 'update'] });
  const group = (await s.client.call('GET', '/apis/events.orch.dev')).json as Json;
  assert.equal(group.kind, 'APIGroup');
  assert.equal((await s.client.call('GET', '/apis/events.k8s.io/v1')).status, 404, 'groups follow the configured domain');
  const lease = await s.client.call('POST', '/apis/coordination.orch.dev/v1/namespaces/default/leases', { body: { apiVersion: 'coordination.orch.dev/v1', kind: 'Lease', metadata: { name: 'l' }, spec: { holderIdentity: 'me' } } });
  assert.equal(lease.status, 201, lease.text);
});

test('/version answers like Kubernetes 1.28', async () => {
  const v = (await s.client.call('GET', '/version')).json as Json;
  assert.equal(v.major, '1');
  assert.equal(v.minor, '28');
  assert.equal(v.gitVersion, 'v1.28.0+orch.0.1.0');
  assert.match(String(v.platform), /^\w+\/\w+$/);
});

test('OpenAPI v3 index and documents carry x-kubernetes-group-version-kind; v2 has every definition', async () => {
  const index = (await s.client.call('GET', '/openapi/v3')).json as { paths: Record<string, { serverRelativeURL: string }> };
  const appsUrl = index.paths['apis/apps/v1']?.serverRelativeURL;
  assert.ok(appsUrl);
  const doc = (await s.client.call('GET', appsUrl)).json as { components: { schemas: Record<string, Json> }; paths: Record<string, Json> };
  const dep = doc.components.schemas['io.k8s.api.apps.v1.Deployment'];
  assert.deepEqual(dep?.['x-kubernetes-group-version-kind'], [{ group: 'apps', version: 'v1', kind: 'Deployment' }]);
  assert.ok(doc.paths['/apis/apps/v1/namespaces/{namespace}/deployments/{name}']);
  const v2 = (await s.client.call('GET', '/openapi/v2')).json as { definitions: Record<string, Json> };
  assert.ok(v2.definitions['io.k8s.api.core.v1.ConfigMap']);
});

test('health endpoints: named checks, verbose, exclude, single checks, failure', async () => {
  const agent = (s.client as unknown as { agent: never }).agent;
  const get = async (path: string) => {
    const res = await request(`${s.baseUrl}${path}`, { dispatcher: agent });
    return { status: res.statusCode, text: await res.body.text() };
  };
  assert.deepEqual(await get('/livez'), { status: 200, text: 'ok' });
  const verbose = await get('/readyz?verbose');
  assert.equal(verbose.status, 200);
  assert.equal(verbose.text, '[+]ping ok\n[+]store ok\n[+]raft-quorum ok\n[+]shutdown ok\nreadyz check passed\n');
  assert.match((await get('/readyz?verbose&exclude=store')).text, /\[\+\]store excluded: ok/);
  assert.deepEqual(await get('/readyz/ping'), { status: 200, text: 'ok' });
  assert.equal((await get('/livez/nope')).status, 404);
  quorumOk = false;
  try {
    const failing = await get('/readyz');
    assert.equal(failing.status, 500);
    assert.match(failing.text, /\[-\]raft-quorum failed: reason withheld\n/);
    assert.match(failing.text, /readyz check failed\n$/);
    assert.equal((await get('/readyz?exclude=raft-quorum')).status, 200);
    assert.equal((await get('/livez')).status, 200);
    assert.equal((await get('/healthz')).status, 500);
  } finally {
    quorumOk = true;
  }
});

test('/metrics counts requests by verb, resource and code and includes gauges others registered', async () => {
  const gauge = new Gauge({ name: 'orch_test_gauge', help: 'a gauge registered by someone else', registers: [registry] });
  gauge.set(7);
  await s.client.call('GET', '/api/v1/namespaces/default/configmaps/absent');
  const text = (await s.client.call('GET', '/metrics')).text;
  assert.match(text, /apiserver_request_total\{verb="GET",group="",version="v1",resource="configmaps",subresource="",code="404"\} 1/);
  assert.match(text, /apiserver_request_duration_seconds_bucket\{/);
  assert.match(text, /orch_test_gauge 7/);
});

test('metric labels come from bounded sets whatever method or path a client sends', async () => {
  const h2 = new RawClient(s.baseUrl, s.tls.cert, testToken, 'h2');
  try {
    for (let i = 0; i < 20; i++) {
      // HTTP/2 takes any token as a method; HTTP/1.1's parser refuses unknown ones before the handler.
      assert.equal((await h2.call(`MADEUP${i}`, '/api/v1/namespaces/default/configmaps')).status, 405);
      assert.equal((await h2.call('GET', `/api/v1/namespaces/default/widgets${i}`)).status, 404);
      assert.equal((await h2.call('GET', `/apis/made.up${i}/v1/things`)).status, 404);
      assert.equal((await h2.call('GET', `/api/v1/namespaces/default/configmaps/x/sub${i}`)).status, 404);
    }
  } finally {
    h2.close();
  }
  const text = (await s.client.call('GET', '/metrics')).text;
  assert.doesNotMatch(text, /MADEUP|widgets|made\.up|sub\d/);
  assert.match(text, /apiserver_request_total\{verb="other",group="",version="",resource="",subresource="",code="405"\} 20/);
  assert.match(text, /apiserver_request_total\{verb="GET",group="",version="v1",resource="configmaps",subresource="",code="404"\} \d+/);
});
