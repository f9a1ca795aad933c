import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect as connectHttp2 } from 'node:http2';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { request } from 'undici';
import { Gauge, Registry } from 'prom-client';
import { parse } from 'yaml';
import { compareVersionPreference } from '../../../internal/apiserver/discovery.ts';
import { ResourceRegistry } from '../../../internal/registry/resource-registry.ts';
import { RawClient } from '../../support/raw-client.ts';
import { startTestServer, testToken, type TestServer } from './harness.ts';

const kubectlPath = '/usr/bin/kubectl';
const run = promisify(execFile);

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
  assert.deepEqual(apis.groups.map((g) => g.name).sort(), [
    'admissionregistration.orch.dev', 'apiextensions.orch.dev', 'apiregistration.orch.dev', 'apps', 'authentication.orch.dev', 'authorization.orch.dev', 'autoscaling', 'batch', 'certificates.orch.dev', 'coordination.orch.dev', 'discovery.orch.dev', 'events.orch.dev', 'flowcontrol.apiserver.orch.dev',
    'networking.orch.dev', 'node.orch.dev', 'policy', 'rbac.authorization.orch.dev', 'scheduling.orch.dev', 'storage.orch.dev',
  ]);
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

test('OpenAPI is Kubernetes\' own v1.28 document: equal to it for a group version orch serves in full, narrowed to served paths elsewhere', async (t) => {
  // Under the k8s.io domain, whose group names the official documents use.
  const k8s = await startTestServer();
  t.after(() => k8s.close());
  const official = (file: string) => JSON.parse(readFileSync(new URL(`../../../third_party/kubernetes-api-v1.28/openapi/${file}`, import.meta.url), 'utf8')) as Json;
  const index = (await k8s.client.call('GET', '/openapi/v3')).json as { paths: Record<string, { serverRelativeURL: string }> };
  const leasesUrl = index.paths['apis/coordination.k8s.io/v1']?.serverRelativeURL;
  assert.ok(leasesUrl, JSON.stringify(index));
  const leases = (await k8s.client.call('GET', leasesUrl)).json;
  assert.deepEqual(leases, official('v3/apis__coordination.k8s.io__v1_openapi.json'));
  const core = (await k8s.client.call('GET', '/openapi/v3/api/v1')).json as { paths: Record<string, unknown>; components: { schemas: Record<string, Json> } };
  assert.ok(core.paths['/api/v1/namespaces/{namespace}/pods/{name}/status']);
  assert.ok(core.paths['/api/v1/namespaces/{namespace}/pods/{name}/eviction'], 'a declared sub-resource is offered');
  assert.ok(core.paths['/api/v1/namespaces/{namespace}/serviceaccounts/{name}/token'], 'TokenRequest, a declared sub-resource of another group\'s kind, is offered');
  const described = core.components.schemas['io.k8s.api.core.v1.ResourceRequirements']?.description;
  assert.match(String(described), /ResourceRequirements describes the compute resource requirements/);
  const v2 = (await k8s.client.call('GET', '/openapi/v2')).json as { definitions: Record<string, Json>; paths: Record<string, unknown> };
  assert.deepEqual(v2.definitions['io.k8s.api.apps.v1.DeploymentSpec'], (official('swagger.json').definitions as Record<string, Json>)['io.k8s.api.apps.v1.DeploymentSpec']);
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
  assert.equal(verbose.text, '[+]ping ok\n[+]store ok\n[+]raft-quorum ok\n[+]informer-sync ok\n[+]poststarthook/rbac/bootstrap-roles ok\n[+]shutdown ok\nreadyz check passed\n');
  assert.match((await get('/readyz?verbose&exclude=store')).text, /\[\+\]store excluded: ok/);
  // system:public-info-viewer grants /readyz itself, not its single checks: as kube-apiserver, anonymous gets 403, the admin 200.
  assert.equal((await get('/readyz/ping')).status, 403);
  assert.deepEqual(await s.client.call('GET', '/readyz/ping').then((r) => ({ status: r.status, text: r.text })), { status: 200, text: 'ok' });
  assert.equal((await s.client.call('GET', '/livez/nope')).status, 404);
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

// ---- Aggregated discovery (apidiscovery.k8s.io/v2beta1), what kubectl and client-go 1.28+ ask for first.

const aggregatedType = 'application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList';

interface DiscoveryGvk {
  group: string;
  version: string;
  kind: string;
}
interface ResourceDiscovery {
  resource: string;
  responseKind: DiscoveryGvk;
  scope: string;
  singularResource: string;
  verbs: string[];
  shortNames?: string[];
  categories?: string[];
  subresources?: { subresource: string; responseKind: DiscoveryGvk; verbs: string[] }[];
}
interface GroupDiscoveryList {
  kind: string;
  apiVersion: string;
  metadata: Json;
  items: { metadata: { name: string }; versions: { version: string; resources: ResourceDiscovery[]; freshness: string }[] }[];
}
interface LegacyResource {
  name: string;
  singularName: string;
  namespaced: boolean;
  group?: string;
  version?: string;
  kind: string;
  verbs: string[];
  shortNames?: string[];
  categories?: string[];
}

async function aggregated(path: string, accept = aggregatedType): Promise<GroupDiscoveryList> {
  const res = await s.client.call('GET', path, { headers: { accept } });
  assert.equal(res.status, 200, res.text);
  assert.equal(res.headers['content-type'], aggregatedType);
  return res.json as GroupDiscoveryList;
}

/** What the aggregated entries of one group version must be: the legacy APIResourceList regrouped. */
function expectedFromLegacy(legacy: LegacyResource[]): ResourceDiscovery[] {
  const out: ResourceDiscovery[] = [];
  for (const r of legacy.filter((e) => !e.name.includes('/'))) {
    out.push({
      resource: r.name,
      responseKind: { group: r.group ?? '', version: r.version ?? '', kind: r.kind },
      scope: r.namespaced ? 'Namespaced' : 'Cluster',
      singularResource: r.singularName,
      verbs: r.verbs,
      ...(r.shortNames ? { shortNames: r.shortNames } : {}),
      ...(r.categories ? { categories: r.categories } : {}),
    });
  }
  for (const r of legacy.filter((e) => e.name.includes('/'))) {
    const [parent = '', sub = ''] = r.name.split('/');
    const entry = out.find((e) => e.resource === parent);
    assert.ok(entry, `a parent for ${r.name}`);
    entry.subresources = [...(entry.subresources ?? []), { subresource: sub, responseKind: { group: r.group ?? '', version: r.version ?? '', kind: r.kind }, verbs: r.verbs }];
  }
  return out;
}

test('aggregated discovery: /apis lists every named group, preferred version first, each version with every served resource as the legacy lists say', async () => {
  const doc = await aggregated('/apis');
  assert.equal(doc.kind, 'APIGroupDiscoveryList');
  assert.equal(doc.apiVersion, 'apidiscovery.k8s.io/v2beta1');
  assert.deepEqual(doc.metadata, {});
  const legacy = (await s.client.call('GET', '/apis')).json as { groups: { name: string; versions: { version: string }[]; preferredVersion: { version: string } }[] };
  assert.deepEqual(doc.items.map((g) => g.metadata.name), legacy.groups.map((g) => g.name), 'the same groups in the same order');
  let served = 0;
  for (const group of legacy.groups) {
    const item = doc.items.find((g) => g.metadata.name === group.name);
    assert.deepEqual(item?.versions.map((v) => v.version), group.versions.map((v) => v.version));
    assert.equal(item?.versions[0]?.version, group.preferredVersion.version, 'the preferred version first');
    for (const version of item?.versions ?? []) {
      assert.equal(version.freshness, 'Current');
      const list = (await s.client.call('GET', `/apis/${group.name}/${version.version}`)).json as { resources: LegacyResource[] };
      assert.deepEqual(version.resources, expectedFromLegacy(list.resources), `${group.name}/${version.version}`);
      served += version.resources.length;
    }
  }
  const core = await aggregated('/api');
  served += core.items[0]?.versions[0]?.resources.length ?? 0;
  assert.equal(served, new ResourceRegistry('orch.dev').resources.length, 'every declared resource, once');
  const apps = doc.items.find((g) => g.metadata.name === 'apps')?.versions[0]?.resources ?? [];
  assert.deepEqual(apps.find((r) => r.resource === 'deployments'), {
    resource: 'deployments',
    responseKind: { group: '', version: '', kind: 'Deployment' },
    scope: 'Namespaced',
    singularResource: 'deployment',
    verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
    shortNames: ['deploy'],
    categories: ['all'],
    subresources: [
      { subresource: 'scale', responseKind: { group: 'autoscaling', version: 'v1', kind: 'Scale' }, verbs: ['get', 'patch', 'update'] },
      { subresource: 'status', responseKind: { group: '', version: '', kind: 'Deployment' }, verbs: ['get', 'patch', 'update'] },
    ],
  });
  const lease = doc.items.find((g) => g.metadata.name === 'coordination.orch.dev')?.versions[0]?.resources.find((r) => r.resource === 'leases');
  assert.deepEqual(lease, { resource: 'leases', responseKind: { group: '', version: '', kind: 'Lease' }, scope: 'Namespaced', singularResource: 'lease', verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'] });
});

test('aggregated discovery: /api is the core group alone (name ""), cluster and namespaced scopes, finalize', async () => {
  const doc = await aggregated('/api');
  assert.equal(doc.kind, 'APIGroupDiscoveryList');
  assert.equal(doc.items.length, 1);
  const core = doc.items[0];
  assert.equal(core?.metadata.name, '');
  assert.deepEqual(core?.versions.map((v) => v.version), ['v1']);
  const resources = core?.versions[0]?.resources ?? [];
  const legacy = (await s.client.call('GET', '/api/v1')).json as { resources: LegacyResource[] };
  assert.deepEqual(resources, expectedFromLegacy(legacy.resources));
  assert.deepEqual(resources.find((r) => r.resource === 'namespaces'), {
    resource: 'namespaces',
    responseKind: { group: '', version: '', kind: 'Namespace' },
    scope: 'Cluster',
    singularResource: 'namespace',
    verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'],
    shortNames: ['ns'],
    // By name, as kube-apiserver lists a resource's sub-resources.
    subresources: [
      { subresource: 'finalize', responseKind: { group: '', version: '', kind: 'Namespace' }, verbs: ['update'] },
      { subresource: 'status', responseKind: { group: '', version: '', kind: 'Namespace' }, verbs: ['get', 'patch', 'update'] },
    ],
  });
  const pods = resources.find((r) => r.resource === 'pods');
  assert.equal(pods?.scope, 'Namespaced');
  assert.deepEqual(pods?.shortNames, ['po']);
  assert.deepEqual(pods?.categories, ['all']);
  assert.deepEqual(resources.find((r) => r.resource === 'configmaps')?.subresources, undefined, 'no empty subresources list');
  assert.ok(!resources.some((r) => r.resource === 'deployments'));
});

test('aggregated discovery negotiation: q-values order the offers; v2 and unknown views fall through to the next; nothing acceptable is 406', async () => {
  const kubectlStyle = `${aggregatedType.replace('v=v2beta1', 'v=v2')},${aggregatedType},application/json;q=0.9`;
  assert.equal((await aggregated('/apis', kubectlStyle)).kind, 'APIGroupDiscoveryList');
  // The aggregated document in Protobuf: protobuf-negotiation.test.ts.
  const protobufV2First = `application/vnd.kubernetes.protobuf;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,${aggregatedType};q=0.9,application/json;q=0.8`;
  assert.equal((await aggregated('/apis', protobufV2First)).kind, 'APIGroupDiscoveryList', 'no v2 in v1.28: the v2beta1 JSON offer is next');
  const protobufThenPlain = await s.client.call('GET', '/apis', { headers: { accept: 'application/vnd.kubernetes.protobuf;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json' } });
  assert.equal((protobufThenPlain.json as Json).kind, 'APIGroupList');
  assert.equal(protobufThenPlain.headers['content-type'], 'application/json');
  const plainPreferred = await s.client.call('GET', '/api', { headers: { accept: `application/json,${aggregatedType};q=0.5` } });
  assert.equal((plainPreferred.json as Json).kind, 'APIVersions', 'a higher q for plain JSON wins');
  assert.equal((await aggregated('/api', `application/json;q=0.5,${aggregatedType}`)).kind, 'APIGroupDiscoveryList');
  const wrongGroup = await s.client.call('GET', '/apis', { headers: { accept: 'application/json;g=meta.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json;as=Table;g=meta.k8s.io;v=v1,application/json;q=0.1' } });
  assert.equal((wrongGroup.json as Json).kind, 'APIGroupList');
  for (const accept of ['application/vnd.kubernetes.protobuf;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList', aggregatedType.replace('v=v2beta1', 'v=v2')]) {
    const refused = await s.client.call('GET', '/apis', { headers: { accept } });
    assert.equal(refused.status, 406, accept);
    assert.equal((refused.json as Json).reason, 'NotAcceptable');
  }
  const yaml = await s.client.call('GET', '/apis', { headers: { accept: aggregatedType.replace('application/json', 'application/yaml') } });
  assert.equal(yaml.status, 200);
  assert.equal(yaml.headers['content-type'], 'application/yaml;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList');
  assert.equal((parse(yaml.text) as Json).kind, 'APIGroupDiscoveryList');
});

test('a plain Accept still gets APIVersions / APIGroupList, and group and group-version documents have no aggregated view', async () => {
  for (const accept of [undefined, 'application/json', '*/*', 'application/json, */*']) {
    const headers: Record<string, string> = accept === undefined ? {} : { accept };
    const api = await s.client.call('GET', '/api', { headers });
    assert.equal((api.json as Json).kind, 'APIVersions', String(accept));
    assert.equal(api.headers['content-type'], 'application/json');
    assert.equal(api.headers.etag, undefined, 'the legacy documents carry no ETag');
    assert.equal((((await s.client.call('GET', '/apis', { headers })).json) as Json).kind, 'APIGroupList');
  }
  const only = await s.client.call('GET', '/apis/apps/v1', { headers: { accept: aggregatedType } });
  assert.equal(only.status, 406);
  const fallback = await s.client.call('GET', '/apis/apps/v1', { headers: { accept: `${aggregatedType},application/json;q=0.9` } });
  assert.equal((fallback.json as Json).kind, 'APIResourceList');
  assert.equal((((await s.client.call('GET', '/apis/apps', { headers: { accept: `${aggregatedType},application/json;q=0.9` } })).json) as Json).kind, 'APIGroup');
});

test('aggregated discovery carries an ETag (SHA-512 of the document) and answers a matching If-None-Match with 304', async () => {
  const first = await s.client.call('GET', '/apis', { headers: { accept: aggregatedType } });
  const etag = String(first.headers.etag);
  assert.match(etag, /^"[0-9A-F]{128}"$/);
  assert.equal(etag, `"${createHash('sha512').update(JSON.stringify(first.json)).digest('hex').toUpperCase()}"`);
  assert.equal(first.headers.vary, 'Accept');
  assert.equal(first.headers['cache-control'], 'public');
  assert.equal((await s.client.call('GET', '/apis', { headers: { accept: aggregatedType } })).headers.etag, etag, 'stable while the resources are');
  const apiEtag = (await s.client.call('GET', '/api', { headers: { accept: aggregatedType } })).headers.etag;
  assert.notEqual(apiEtag, etag, '/api and /apis are different documents');
  const cached = await s.client.call('GET', '/apis', { headers: { accept: aggregatedType, 'if-none-match': etag } });
  assert.equal(cached.status, 304);
  assert.equal(cached.text, '');
  assert.equal(cached.headers.etag, etag);
  assert.equal(cached.headers.vary, 'Accept');
  const stale = await s.client.call('GET', '/apis', { headers: { accept: aggregatedType, 'if-none-match': '"0123"' } });
  assert.equal(stale.status, 200);
  assert.equal(stale.text, first.text);
  const legacy = await s.client.call('GET', '/apis', { headers: { accept: 'application/json', 'if-none-match': etag } });
  assert.equal(legacy.status, 200, 'the legacy document ignores If-None-Match');
  assert.equal((legacy.json as Json).kind, 'APIGroupList');
  const h2 = await h2Get('/api', { accept: aggregatedType, 'if-none-match': String(apiEtag) });
  assert.deepEqual(h2, { status: 304, etag: apiEtag, body: '' }, 'a 304 over HTTP/2 too');
});

async function h2Get(path: string, headers: Record<string, string>): Promise<{ status: number; etag: unknown; body: string }> {
  const session = connectHttp2(s.baseUrl, { ca: s.tls.cert });
  try {
    const stream = session.request({ ':method': 'GET', ':path': path, authorization: `Bearer ${testToken}`, ...headers });
    const head = await new Promise<Record<string, unknown>>((resolve, reject) => {
      stream.once('response', resolve);
      stream.once('error', reject);
    });
    let body = '';
    for await (const chunk of stream) body += String(chunk);
    return { status: Number(head[':status']), etag: head.etag, body };
  } finally {
    session.close();
  }
}

test('kubectl api-resources reads the aggregated document alone (no per-group-version requests)', { skip: !existsSync(kubectlPath) && 'kubectl not installed' }, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'orch-discovery-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const kubeconfig = join(dir, 'kubeconfig');
  writeFileSync(
    kubeconfig,
    `apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster:\n    server: ${s.baseUrl}\n    certificate-authority-data: ${Buffer.from(s.tls.cert).toString('base64')}\nusers:\n- name: u\n  user:\n    token: ${testToken}\ncontexts:\n- name: x\n  context: {cluster: c, user: u, namespace: default}\ncurrent-context: x\n`,
  );
  const { stdout, stderr } = await run(kubectlPath, ['--kubeconfig', kubeconfig, '--cache-dir', join(dir, 'cache'), 'api-resources', '-v=8'], { timeout: 20_000 });
  assert.match(stderr, /GET https:\/\/127\.0\.0\.1:\d+\/api\?timeout=/);
  assert.match(stderr, /GET https:\/\/127\.0\.0\.1:\d+\/apis\?timeout=/);
  assert.match(stderr, /Content-Type: application\/json;g=apidiscovery\.k8s\.io;v=v2beta1;as=APIGroupDiscoveryList/);
  assert.doesNotMatch(stderr, /GET https:\/\/[^ ]+\/(api\/v1|apis\/[^ ?]+\/v1)\?/, 'no legacy group-version discovery');
  assert.match(stdout, /^NAME\s+SHORTNAMES\s+APIVERSION\s+NAMESPACED\s+KIND\n/);
  assert.match(stdout, /\nnamespaces\s+ns\s+v1\s+false\s+Namespace\n/);
  assert.match(stdout, /\ndeployments\s+deploy\s+apps\/v1\s+true\s+Deployment\n/);
  assert.match(stdout, /\nleases\s+coordination\.orch\.dev\/v1\s+true\s+Lease\n/);
  // One line per resource of a group, at its preferred version (autoscaling/v1 HPAs are listed as autoscaling/v2's).
  const resources = new Set(new ResourceRegistry('orch.dev').resources.map((r) => `${r.group}/${r.decl.plural}`));
  assert.equal(stdout.trim().split('\n').length - 1, resources.size);
});

test('versions are preferred as Kubernetes orders them: GA, then beta, then alpha, higher first; other shapes last by name', () => {
  const shuffled = ['foo10', 'v1beta1', 'v1', 'v11alpha2', 'v3beta1', 'foo1', 'v10', 'v12alpha1', 'v2', 'v10beta3', 'v11beta2'];
  assert.deepEqual(shuffled.sort(compareVersionPreference), ['v10', 'v2', 'v1', 'v11beta2', 'v10beta3', 'v3beta1', 'v1beta1', 'v12alpha1', 'v11alpha2', 'foo1', 'foo10']);
});
