// The audit of in-process requests (a controller's reads and writes through its store views, the
// API server's own): the same policy, stages, levels and encoding as an HTTP request's, with the
// URI kube's client sends, the loopback address, a component's user agent and the authorizer's
// decision; a refused action audited with its 403; nothing at all without an auditor.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { bootstrapRbacStores } from '../controllers/bootstrap-rbac-fixture.ts';
import { Registry } from 'prom-client';
import { Auditor } from '../../../internal/audit/auditor.ts';
import { InternalRequestAudit, internalRequestUri } from '../../../internal/audit/internal-request-audit.ts';
import { AuditMetrics } from '../../../internal/audit/metrics.ts';
import { parsePolicy } from '../../../internal/audit/policy-file.ts';
import { apiServerUser, authorizedStore, controllerUser, startControllerWatch } from '../../../internal/controllers/controller-identity.ts';

type Event = Record<string, unknown> & { auditID: string; stage: string; verb: string; requestURI: string; user: { username: string }; objectRef?: Record<string, string>; responseStatus?: Record<string, unknown>; annotations?: Record<string, string>; requestObject?: Record<string, unknown> };

function auditor(policyYaml: string): { auditor: Auditor; events: Event[] } {
  const events: Event[] = [];
  const sink = {
    processEvents(list: readonly { json: string }[]) {
      for (const e of list) events.push(JSON.parse(e.json) as Event);
      return true;
    },
    shutdown: () => Promise.resolve(),
  };
  return { auditor: new Auditor(parsePolicy(policyYaml), sink, new AuditMetrics(new Registry())), events };
}

const metadataPolicy = 'apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: Metadata\n';


test('the URI kube\'s client sends', () => {
  assert.equal(internalRequestUri('get', { group: '', version: 'v1', resource: 'configmaps', namespace: 'ns', name: 'n' }, undefined), '/api/v1/namespaces/ns/configmaps/n');
  assert.equal(internalRequestUri('create', { group: '', version: 'v1', resource: 'configmaps', namespace: 'ns', name: 'n' }, undefined), '/api/v1/namespaces/ns/configmaps');
  assert.equal(internalRequestUri('update', { group: '', version: 'v1', resource: 'namespaces', name: 'ns', subresource: 'finalize' }, undefined), '/api/v1/namespaces/ns/finalize');
  assert.equal(internalRequestUri('list', { group: 'rbac.authorization.k8s.io', version: 'v1', resource: 'clusterroles' }, { limit: 1, fieldSelector: 'metadata.name=x' }), '/apis/rbac.authorization.k8s.io/v1/clusterroles?limit=1&fieldSelector=metadata.name%3Dx');
  assert.equal(internalRequestUri('watch', { group: '', version: 'v1', resource: 'pods' }, { resourceVersion: '5' }), '/api/v1/pods?watch=true&resourceVersion=5');
});

test('a controller\'s create, list and refused get are audited as its HTTP requests would be', async (t) => {
  const { storage, authorizer, store } = await bootstrapRbacStores();
  t.after(() => storage.close());
  const { auditor: a, events } = auditor(metadataPolicy);
  const user = controllerUser('service-account-controller');
  const accounts = authorizedStore(store('', 'serviceaccounts'), authorizer, user, undefined, undefined, { auditor: a, component: 'service-account-controller' });
  await accounts.create('default', { metadata: { name: 'default' } }, { fieldManager: 'test' });
  const [received, complete, ...rest] = events;
  assert.equal(rest.length, 0);
  assert.equal(received?.stage, 'RequestReceived');
  assert.equal(complete?.stage, 'ResponseComplete');
  assert.equal(received?.auditID, complete?.auditID);
  assert.equal(complete?.level, 'Metadata');
  assert.equal(complete?.verb, 'create');
  assert.equal(complete?.requestURI, '/api/v1/namespaces/default/serviceaccounts');
  assert.equal(complete?.user.username, 'system:serviceaccount:kube-system:service-account-controller');
  assert.deepEqual(complete?.sourceIPs, ['127.0.0.1']);
  assert.match(String(complete?.userAgent), /^orch\/v\S+ \(\w+\/\w+\) kubernetes\/orch\/service-account-controller$/);
  assert.deepEqual(complete?.objectRef, { resource: 'serviceaccounts', namespace: 'default', name: 'default', apiVersion: 'v1' });
  assert.deepEqual(complete?.responseStatus, { metadata: {}, code: 201 });
  assert.equal(complete?.annotations?.['authorization.k8s.io/decision'], 'allow');
  assert.match(complete?.annotations?.['authorization.k8s.io/reason'] ?? '', /system:controller:service-account-controller/);
  assert.equal(complete?.requestObject, undefined, 'Metadata keeps no body');

  events.length = 0;
  await accounts.list('default', { limit: 1 });
  assert.deepEqual(events.map((e) => [e.stage, e.verb, e.user.username, e.requestURI]), [
    ['RequestReceived', 'list', 'system:kube-controller-manager', '/api/v1/namespaces/default/serviceaccounts?limit=1'],
    ['ResponseComplete', 'list', 'system:kube-controller-manager', '/api/v1/namespaces/default/serviceaccounts?limit=1'],
  ]);
  assert.match(String(events[1]?.userAgent), /\/shared-informers$/);

  events.length = 0;
  const secrets = authorizedStore(store('', 'secrets'), authorizer, user, undefined, undefined, { auditor: a, component: 'service-account-controller' });
  await assert.rejects(secrets.get('default', 'any'), /forbidden/);
  const refused = events.at(-1);
  assert.equal(events.length, 2);
  assert.equal(refused?.stage, 'ResponseComplete');
  assert.equal(refused?.requestURI, '/api/v1/namespaces/default/secrets/any');
  assert.equal(refused?.responseStatus?.code, 403);
  assert.equal(refused?.responseStatus?.reason, 'Forbidden');
  assert.equal(refused?.annotations?.['authorization.k8s.io/decision'], 'forbid');
});

test('a controller\'s watch: RequestReceived, ResponseStarted, ResponseComplete when stopped', async (t) => {
  const { storage, authorizer, store } = await bootstrapRbacStores();
  t.after(() => storage.close());
  const { auditor: a, events } = auditor(metadataPolicy);
  const accounts = authorizedStore(store('', 'serviceaccounts'), authorizer, controllerUser('service-account-controller'), undefined, undefined, { auditor: a, component: 'service-account-controller' });
  const watch = await startControllerWatch(accounts, undefined, {});
  assert.deepEqual(events.map((e) => e.stage), ['RequestReceived', 'ResponseStarted']);
  watch.stop();
  for await (const event of watch.events) void event;
  assert.deepEqual(events.map((e) => [e.stage, e.verb]), [['RequestReceived', 'watch'], ['ResponseStarted', 'watch'], ['ResponseComplete', 'watch']]);
  assert.equal(events[0]?.requestURI, '/api/v1/serviceaccounts?watch=true');
  assert.equal(events[2]?.user.username, 'system:kube-controller-manager');
});

test('the policy as for HTTP: levels, omitted stages, managed fields, users; the server\'s own as system:apiserver', async (t) => {
  const { storage, authorizer, store } = await bootstrapRbacStores();
  t.after(() => storage.close());
  const { auditor: a, events } = auditor(`
apiVersion: audit.k8s.io/v1
kind: Policy
omitManagedFields: true
rules:
- level: None
  users: ["system:kube-controller-manager"]
- level: Request
  omitStages: [RequestReceived]
`);
  const configMaps = authorizedStore(store('', 'configmaps'), undefined, apiServerUser, apiServerUser, undefined, { auditor: a, component: 'crd-naming' });
  await configMaps.create('default', { metadata: { name: 'x', managedFields: [{ manager: 'm' }] }, data: { a: 'b' } }, { fieldManager: 'test' });
  await configMaps.list('default', {});
  assert.equal(events.length, 2, 'one ResponseComplete each');
  const [created, listed] = events;
  assert.equal(created?.stage, 'ResponseComplete');
  assert.equal(created?.user.username, 'system:apiserver');
  assert.deepEqual((created?.user as { groups?: string[] }).groups, ['system:masters', 'system:authenticated']);
  assert.deepEqual(created?.requestObject, { metadata: { name: 'x' }, data: { a: 'b' } });
  assert.deepEqual(created?.annotations, { 'authorization.k8s.io/decision': 'allow', 'authorization.k8s.io/reason': '' });
  assert.equal(listed?.verb, 'list');

  // The informer's user is None by the first rule: nothing written for a controller's list.
  events.length = 0;
  const asController = authorizedStore(store('', 'configmaps'), authorizer, controllerUser('root-ca-cert-publisher'), undefined, undefined, { auditor: a, component: 'root-ca-cert-publisher' });
  await asController.list('default', {});
  assert.equal(events.length, 0);
});

test('no auditor: nothing is audited and nothing is built', () => {
  assert.equal(InternalRequestAudit.begin(undefined, { user: apiServerUser, verb: 'get', objectRef: { group: '', version: 'v1', resource: 'pods' }, component: 'x' }), undefined);
});
