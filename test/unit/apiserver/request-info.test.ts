import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseRequestInfo } from '../../../internal/apiserver/request-info.ts';

const q = new URLSearchParams();

test('request info parses core, named-group, namespaced and sub-resource paths', () => {
  assert.deepEqual(parseRequestInfo('GET', '/api/v1/namespaces/ns1/pods/p1/status', q), { kind: 'resource', verb: 'get', group: '', version: 'v1', resource: 'pods', namespace: 'ns1', name: 'p1', subresource: 'status' });
  assert.deepEqual(parseRequestInfo('GET', '/apis/apps/v1/deployments', q), { kind: 'resource', verb: 'list', group: 'apps', version: 'v1', resource: 'deployments' });
  assert.deepEqual(parseRequestInfo('DELETE', '/api/v1/namespaces/ns1/configmaps', q), { kind: 'resource', verb: 'deletecollection', group: '', version: 'v1', resource: 'configmaps', namespace: 'ns1' });
  assert.deepEqual(parseRequestInfo('GET', '/api/v1/namespaces/ns1', q), { kind: 'resource', verb: 'get', group: '', version: 'v1', resource: 'namespaces', namespace: 'ns1', name: 'ns1' });
  assert.deepEqual(parseRequestInfo('PUT', '/api/v1/namespaces/ns1/status', q), { kind: 'resource', verb: 'update', group: '', version: 'v1', resource: 'namespaces', namespace: 'ns1', name: 'ns1', subresource: 'status' });
  assert.equal(parseRequestInfo('GET', '/api/v1/pods', new URLSearchParams('watch=1'))?.kind === 'resource' && (parseRequestInfo('GET', '/api/v1/pods', new URLSearchParams('watch=1')) as { verb: string }).verb, 'watch');
  assert.deepEqual(parseRequestInfo('GET', '/apis/apps/v1', q), { kind: 'non-resource', path: '/apis/apps/v1' });
  assert.equal(parseRequestInfo('OPTIONS', '/api/v1/pods', q), null);
});

test('the legacy watch paths /api/v1/watch/... and /apis/{group}/{version}/watch/... are watches', () => {
  assert.deepEqual(parseRequestInfo('GET', '/api/v1/watch/pods', q), { kind: 'resource', verb: 'watch', group: '', version: 'v1', resource: 'pods' });
  assert.deepEqual(parseRequestInfo('GET', '/api/v1/watch/namespaces/ns1/pods', q), { kind: 'resource', verb: 'watch', group: '', version: 'v1', resource: 'pods', namespace: 'ns1' });
  assert.deepEqual(parseRequestInfo('GET', '/api/v1/watch/namespaces/ns1/pods/p1', q), { kind: 'resource', verb: 'watch', group: '', version: 'v1', resource: 'pods', namespace: 'ns1', name: 'p1' });
  assert.deepEqual(parseRequestInfo('GET', '/apis/apps/v1/watch/namespaces/ns1/deployments/d1', q), { kind: 'resource', verb: 'watch', group: 'apps', version: 'v1', resource: 'deployments', namespace: 'ns1', name: 'd1' });
  assert.deepEqual(parseRequestInfo('GET', '/api/v1/watch/namespaces/ns1', q), { kind: 'resource', verb: 'watch', group: '', version: 'v1', resource: 'namespaces', namespace: 'ns1', name: 'ns1' });
  assert.deepEqual(parseRequestInfo('GET', '/api/v1/watch/namespaces', q), { kind: 'resource', verb: 'watch', group: '', version: 'v1', resource: 'namespaces' });
  assert.deepEqual(parseRequestInfo('GET', '/api/v1/watch/nodes/n1', new URLSearchParams('watch=false')), { kind: 'resource', verb: 'watch', group: '', version: 'v1', resource: 'nodes', name: 'n1' });
  assert.equal(parseRequestInfo('POST', '/api/v1/watch/namespaces/ns1/pods', q), null);
  assert.equal(parseRequestInfo('DELETE', '/api/v1/watch/pods', q), null);
});
