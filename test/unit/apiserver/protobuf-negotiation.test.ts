// Content negotiation with Protobuf, as kube-apiserver's: Accept lists with q-values and wildcards,
// kinds without a message (custom resources), views (Table never, metadata always), errors, discovery.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { RequestContext } from '../../../internal/apiserver/handlers/request-context.ts';
import { readDecodedBody } from '../../../internal/apiserver/handlers/decode-object.ts';
import { negotiateDiscovery, negotiateError, negotiateResponse, type EndpointOffers, type Negotiated } from '../../../internal/apiserver/negotiation.ts';
import { protobufMediaTypeAlias, type KubeObject } from '../../../internal/apiserver/protobuf/index.ts';
import { StatusError } from '../../../internal/registry/errors/status-error.ts';
import { configmaps } from '../../../internal/registry/core/configmaps.ts';
import { startTestServer, type TestServer } from './harness.ts';
import { call, jsonOf, objectOf, pb } from './protobuf-http.ts';

const meta = (as: string, type = pb): string => `${type};as=${as};g=meta.k8s.io;v=v1`;
const builtIn: EndpointOffers = { views: true, protobuf: () => true };
const custom: EndpointOffers = { views: true, protobuf: () => false };
const write: EndpointOffers = { views: false, protobuf: () => true };

test('negotiateResponse picks as kube-apiserver does', () => {
  const cases: [accept: string | undefined, offers: EndpointOffers, expected: Negotiated | 406][] = [
    [undefined, builtIn, { format: 'json' }],
    [pb, builtIn, { format: 'json', protobuf: pb }],
    [protobufMediaTypeAlias, builtIn, { format: 'json', protobuf: protobufMediaTypeAlias }],
    [`${pb}, application/json`, builtIn, { format: 'json', protobuf: pb }],
    [`${pb}, */*`, builtIn, { format: 'json', protobuf: pb }],
    [`${pb};q=0.5, application/json`, builtIn, { format: 'json' }],
    [`application/json;q=0.5, ${pb}`, builtIn, { format: 'json', protobuf: pb }],
    // Among equal q-values the more specific offer goes first (goautoneg); a wildcard is JSON.
    [`*/*, ${pb}`, builtIn, { format: 'json', protobuf: pb }],
    [`application/*, ${pb}`, builtIn, { format: 'json', protobuf: pb }],
    ['*/*', builtIn, { format: 'json' }],
    ['application/*', builtIn, { format: 'json' }],
    [`${pb};stream=watch`, builtIn, { format: 'json', protobuf: pb }],
    // No message (a custom resource): JSON when also accepted, else 406.
    [`${pb}, application/json`, custom, { format: 'json' }],
    [`${pb}, */*`, custom, { format: 'json' }],
    [pb, custom, 406],
    // Views: Table only in JSON (or YAML), metadata in Protobuf whatever the kind.
    [`${meta('Table')}, application/json`, builtIn, { format: 'json' }],
    [meta('Table'), builtIn, 406],
    [`${meta('Table', 'application/json')}, ${pb}`, builtIn, { format: 'table' }],
    [meta('PartialObjectMetadataList'), builtIn, { format: 'metadata', protobuf: pb }],
    [meta('PartialObjectMetadata'), custom, { format: 'metadata', protobuf: pb }],
    [`${pb};as=PartialObjectMetadata;g=meta.k8s.io;v=v1beta1`, builtIn, { format: 'metadata', protobuf: pb }],
    [`${pb};as=PartialObjectMetadata;g=apps;v=v1, application/json`, builtIn, { format: 'json' }],
    [`${meta('PartialObjectMetadata')}, application/json`, write, { format: 'json' }],
    [`${pb};as=Pod, application/yaml`, builtIn, { format: 'yaml' }],
    ['text/html', builtIn, 406],
  ];
  for (const [accept, offers, expected] of cases) {
    const label = `${String(accept)} (${offers === custom ? 'no message' : offers === write ? 'no views' : 'built-in'})`;
    if (expected === 406) assert.throws(() => negotiateResponse(accept, 'k8s.io', offers), (e: unknown) => e instanceof StatusError && e.code === 406, label);
    else assert.deepEqual(negotiateResponse(accept, 'k8s.io', offers), expected, label);
  }
});

test('a JSON request never asks whether its kind has a message', () => {
  const never: EndpointOffers = { views: true, protobuf: () => assert.fail('asked') };
  for (const accept of [undefined, 'application/json', '*/*', `application/json, ${pb}`, meta('Table', 'application/json')]) negotiateResponse(accept, 'k8s.io', never);
});

test('negotiateError: a Status in the first encoding offered without a view, else JSON', () => {
  const cases: [string | undefined, string][] = [
    [undefined, 'json'],
    [pb, pb],
    [protobufMediaTypeAlias, protobufMediaTypeAlias],
    [`${meta('PartialObjectMetadataList')}, application/json`, 'json'],
    [`${meta('Table', 'application/json')}, ${pb}`, pb],
    ['application/yaml', 'yaml'],
    [meta('Table', 'application/json'), 'json'],
    ['text/html', 'json'],
    [`*/*, ${pb}`, pb],
  ];
  for (const [accept, expected] of cases) assert.equal(negotiateError(accept), expected, String(accept));
});

test('negotiateDiscovery: the aggregated document and the legacy ones in Protobuf', () => {
  const aggregated = 'g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList';
  assert.deepEqual(negotiateDiscovery(`${pb};${aggregated},application/json;${aggregated},application/json`), { format: 'json', protobuf: pb, aggregated: true });
  assert.deepEqual(negotiateDiscovery(`${pb}, application/json`), { format: 'json', protobuf: pb, aggregated: false });
  assert.deepEqual(negotiateDiscovery(`${pb};g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList, application/json`), { format: 'json', aggregated: false });
  assert.deepEqual(negotiateDiscovery(`application/json;${aggregated}`), { format: 'json', aggregated: true });
});

test('a Protobuf body for a kind without a message (a custom resource) is a 415 naming JSON and YAML, before the body is read', async () => {
  let bodyRead = false;
  const ctx = {
    headers: { 'content-type': pb },
    served: { decl: { ...configmaps, custom: true }, group: 'example.com', version: 'v1', apiVersion: 'example.com/v1' },
    info: { verb: 'create', namespace: 'default' },
    body: { [Symbol.asyncIterator]: () => { bodyRead = true; throw new Error('must not read'); } },
  } as unknown as RequestContext;
  await assert.rejects(readDecodedBody(ctx), (e: unknown) => e instanceof StatusError && e.code === 415 && e.message.endsWith('accepted media types include: application/json, application/yaml'));
  assert.equal(bodyRead, false);
});

let s: TestServer;
before(async () => {
  s = await startTestServer();
});
after(() => s.close());

const cms = '/api/v1/namespaces/default/configmaps';

test('errors are negotiated: a protobuf-only client gets its 404, 409 and 422 Status in Protobuf, a JSON-accepting one as it asks', async () => {
  const missing = await call(s, 'GET', `${cms}/nothing`, { accept: pb });
  assert.equal(missing.status, 404);
  assert.deepEqual(objectOf(missing), { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'configmaps "nothing" not found', reason: 'NotFound', details: { name: 'nothing', kind: 'configmaps' }, code: 404 });
  const body: KubeObject = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'pn-dup' } };
  assert.equal((await call(s, 'POST', cms, { body })).status, 201);
  const duplicate = await call(s, 'POST', cms, { body, accept: pb });
  assert.equal(duplicate.status, 409);
  assert.equal(objectOf(duplicate).reason, 'AlreadyExists');
  const invalid = await call(s, 'POST', `${cms}?dryRun=Sometimes`, { body, accept: pb });
  assert.equal(invalid.status, 422);
  assert.equal(objectOf(invalid).reason, 'Invalid');
  assert.equal(jsonOf(await call(s, 'GET', `${cms}/nothing`, { accept: `application/json, ${pb}` })).code, 404);
  const unknownResource = await call(s, 'GET', '/api/v1/namespaces/default/nothings', { accept: pb });
  assert.equal(objectOf(unknownResource).code, 404, 'errors before routing are negotiated too');
  const unauthorized = await call(s, 'GET', cms, { accept: pb, headers: { authorization: 'Bearer wrong' } });
  assert.equal(unauthorized.status, 401);
  assert.equal(objectOf(unauthorized).reason, 'Unauthorized', 'before authentication too');
});

test('406 names the media types kube-apiserver writes; 415 lists Protobuf for built-in kinds, and a PATCH in Protobuf is a 415 naming the patch types', async () => {
  const refused = await call(s, 'GET', cms, { accept: 'text/html' });
  assert.equal(refused.status, 406);
  assert.equal(jsonOf(refused).message, 'only the following media types are accepted: application/json, application/yaml, application/vnd.kubernetes.protobuf');
  const unknownBody = await call(s, 'POST', cms, { body: 'x', contentType: 'text/plain', accept: pb });
  assert.equal(unknownBody.status, 415);
  assert.equal(objectOf(unknownBody).message, 'the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, application/vnd.kubernetes.protobuf');
  assert.equal((await call(s, 'POST', cms, { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'pn-patch' } } })).status, 201);
  const patch = await call(s, 'PATCH', `${cms}/pn-patch`, { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'pn-patch' } }, accept: pb });
  assert.equal(patch.status, 415);
  assert.match(String(objectOf(patch).message), /accepted media types include: application\/json-patch\+json, application\/merge-patch\+json, application\/strategic-merge-patch\+json, application\/apply-patch\+yaml$/);
  const onlyProtobuf = await call(s, 'GET', '/version', { accept: pb });
  assert.equal(onlyProtobuf.status, 406);
  assert.equal(objectOf(onlyProtobuf).reason, 'NotAcceptable', 'the 406 itself in the Protobuf asked for');
});

test('discovery in Protobuf: /api, /apis, a group, a group version, and the aggregated document with its ETag', async () => {
  const versions = objectOf(await call(s, 'GET', '/api', { accept: `${pb}, application/json` }));
  assert.deepEqual([versions.kind, versions.versions], ['APIVersions', ['v1']]);
  const groups = objectOf(await call(s, 'GET', '/apis', { accept: pb }));
  assert.deepEqual(groups.groups, jsonOf(await call(s, 'GET', '/apis')).groups);
  assert.deepEqual(objectOf(await call(s, 'GET', '/apis/apps', { accept: pb })), jsonOf(await call(s, 'GET', '/apis/apps')));
  const resources = objectOf(await call(s, 'GET', '/apis/apps/v1', { accept: pb }));
  const resourcesJson = jsonOf(await call(s, 'GET', '/apis/apps/v1'));
  assert.equal(resources.groupVersion, 'apps/v1');
  assert.deepEqual((resources.resources as { name: string }[]).map((r) => r.name), (resourcesJson.resources as { name: string }[]).map((r) => r.name));
  const params = ';g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList';
  const agg = await call(s, 'GET', '/apis', { accept: `${pb}${params},application/json${params},application/json` });
  const document = objectOf(agg, `${pb}${params}`);
  const documentJson = JSON.parse((await call(s, 'GET', '/apis', { accept: `application/json${params}` })).body.toString('utf8')) as KubeObject;
  assert.equal(document.kind, 'APIGroupDiscoveryList');
  assert.deepEqual((document.items as { metadata: { name: string } }[]).map((g) => g.metadata.name), (documentJson.items as { metadata: { name: string } }[]).map((g) => g.metadata.name));
  assert.equal(agg.headers.vary, 'Accept');
  const etag = String(agg.headers.etag);
  assert.equal(etag, (await call(s, 'GET', '/apis', { accept: `application/json${params}` })).headers.etag, 'one ETag (of the JSON form) whatever the encoding');
  assert.equal((await call(s, 'GET', '/apis', { accept: `${pb}${params}`, headers: { 'if-none-match': etag } })).status, 304);
  const core = objectOf(await call(s, 'GET', '/api', { accept: `${pb}${params}` }), `${pb}${params}`);
  assert.deepEqual((core.items as { metadata: { name?: string } }[]).map((g) => g.metadata.name ?? ''), ['']);
  const version = await call(s, 'GET', '/version', { accept: `${pb}, application/json` });
  assert.equal(jsonOf(version).major, '1', '/version is never Protobuf');
});
