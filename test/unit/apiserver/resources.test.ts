import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { builtinDeclarations } from '../../../internal/registry/resource-registry.ts';
import { everythingServed, startTestServer, type TestServer } from './harness.ts';

let s: TestServer;
before(async () => {
  s = await startTestServer({ serving: everythingServed });
});
after(() => s.close());

const podTemplate = { metadata: { labels: { app: 'a' } }, spec: { containers: [{ name: 'c', image: 'busybox:1.36' }] } };
const selector = { matchLabels: { app: 'a' } };

/** A minimal valid object of every built-in resource. */
const samples: Record<string, { path: string; body: Record<string, unknown> }> = {
  namespaces: { path: '/api/v1/namespaces', body: { spec: {} } },
  configmaps: { path: '/api/v1/namespaces/default/configmaps', body: { data: { a: 'b' } } },
  secrets: { path: '/api/v1/namespaces/default/secrets', body: { stringData: { a: 'b' } } },
  serviceaccounts: { path: '/api/v1/namespaces/default/serviceaccounts', body: {} },
  services: { path: '/api/v1/namespaces/default/services', body: { spec: { ports: [{ port: 80 }] } } },
  endpoints: { path: '/api/v1/namespaces/default/endpoints', body: { subsets: [{ addresses: [{ ip: '10.0.0.1' }], ports: [{ port: 80 }] }] } },
  pods: { path: '/api/v1/namespaces/default/pods', body: { spec: podTemplate.spec } },
  nodes: { path: '/api/v1/nodes', body: {} },
  events: { path: '/api/v1/namespaces/default/events', body: { involvedObject: { kind: 'Pod', name: 'p' }, reason: 'Test', message: 'hello', type: 'Normal' } },
  limitranges: { path: '/api/v1/namespaces/default/limitranges', body: { spec: { limits: [{ type: 'Container', default: { cpu: '100m' } }] } } },
  resourcequotas: { path: '/api/v1/namespaces/default/resourcequotas', body: { spec: { hard: { pods: '10' } } } },
  persistentvolumes: { path: '/api/v1/persistentvolumes', body: { spec: { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], hostPath: { path: '/tmp' } } } },
  persistentvolumeclaims: { path: '/api/v1/namespaces/default/persistentvolumeclaims', body: { spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } } },
  'deployments.apps': { path: '/apis/apps/v1/namespaces/default/deployments', body: { spec: { selector, template: podTemplate } } },
  'replicasets.apps': { path: '/apis/apps/v1/namespaces/default/replicasets', body: { spec: { selector, template: podTemplate } } },
  'statefulsets.apps': { path: '/apis/apps/v1/namespaces/default/statefulsets', body: { spec: { selector, template: podTemplate, serviceName: 's' } } },
  'daemonsets.apps': { path: '/apis/apps/v1/namespaces/default/daemonsets', body: { spec: { selector, template: podTemplate } } },
  'events.events': { path: '/apis/events.k8s.io/v1/namespaces/default/events', body: { eventTime: '2026-01-01T00:00:00.000000Z', reportingController: 'c', reportingInstance: 'i', action: 'A', reason: 'R', type: 'Normal', regarding: { kind: 'Pod', name: 'p' } } },
  'certificatesigningrequests.certificates': { path: '/apis/certificates.k8s.io/v1/certificatesigningrequests', body: { spec: { request: 'LS0tLS1CRUdJTiBDRVJUSUZJQ0FURSBSRVFVRVNULS0tLS0KTUlITk1IUUNBUUF3RWpFUU1BNEdBMVVFQXd3SFptbDRkSFZ5WlRCWk1CTUdCeXFHU000OUFnRUdDQ3FHU000OQpBd0VIQTBJQUJCamxtNXRXRTZ6Vmo4MGN0Z3hnN1YwQW80eHBYN0tGSVowakZNaHZmN2lTWnRxTGdYem5NRkZGCkxIeDJpNUs4UlgzR0ZHTHZZZ1R3YitQWDEzV3lHSytnQURBS0JnZ3Foa2pPUFFRREFnTkpBREJHQWlFQXpyTi8Kb2YvZzdCZE1WTjdRc2VYZU80bWRFNFN3ZVRqTGkzeU1ZRFc3a0RzQ0lRQ1BsNmxXcUxsNnRYdDUyR2QrZWhBTwp6OUdoMmpreGdUR0RqVlNRTGY2T09nPT0KLS0tLS1FTkQgQ0VSVElGSUNBVEUgUkVRVUVTVC0tLS0tCg==', signerName: 'example.com/sample', usages: ['client auth'] } } },
  'leases.coordination': { path: '/apis/coordination.k8s.io/v1/namespaces/default/leases', body: { spec: { holderIdentity: 'me', leaseDurationSeconds: 15 } } },
  podtemplates: { path: '/api/v1/namespaces/default/podtemplates', body: { template: podTemplate } },
  replicationcontrollers: { path: '/api/v1/namespaces/default/replicationcontrollers', body: { spec: { selector: { app: 'a' }, template: podTemplate } } },
  componentstatuses: { path: '/api/v1/componentstatuses', body: {} },
  'controllerrevisions.apps': { path: '/apis/apps/v1/namespaces/default/controllerrevisions', body: { data: {}, revision: 1 } },
  'jobs.batch': { path: '/apis/batch/v1/namespaces/default/jobs', body: { spec: { template: { spec: { ...podTemplate.spec, restartPolicy: 'Never' } } } } },
  'cronjobs.batch': { path: '/apis/batch/v1/namespaces/default/cronjobs', body: { spec: { schedule: '@daily', jobTemplate: { spec: { template: { spec: { ...podTemplate.spec, restartPolicy: 'OnFailure' } } } } } } },
  'roles.rbac.authorization': { path: '/apis/rbac.authorization.k8s.io/v1/namespaces/default/roles', body: { rules: [] } },
  'clusterroles.rbac.authorization': { path: '/apis/rbac.authorization.k8s.io/v1/clusterroles', body: {} },
  'rolebindings.rbac.authorization': { path: '/apis/rbac.authorization.k8s.io/v1/namespaces/default/rolebindings', body: { roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'r' } } },
  'clusterrolebindings.rbac.authorization': { path: '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings', body: { roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'r' } } },
  'ingresses.networking': { path: '/apis/networking.k8s.io/v1/namespaces/default/ingresses', body: { spec: { defaultBackend: { service: { name: 's', port: { number: 80 } } } } } },
  'ingressclasses.networking': { path: '/apis/networking.k8s.io/v1/ingressclasses', body: { spec: { controller: 'example.com/c' } } },
  'networkpolicies.networking': { path: '/apis/networking.k8s.io/v1/namespaces/default/networkpolicies', body: { spec: { podSelector: {} } } },
  'poddisruptionbudgets.policy': { path: '/apis/policy/v1/namespaces/default/poddisruptionbudgets', body: { spec: { minAvailable: 1 } } },
  'storageclasses.storage': { path: '/apis/storage.k8s.io/v1/storageclasses', body: { provisioner: 'example.com/p' } },
  'csidrivers.storage': { path: '/apis/storage.k8s.io/v1/csidrivers', body: { spec: {} } },
  'csinodes.storage': { path: '/apis/storage.k8s.io/v1/csinodes', body: { spec: { drivers: [] } } },
  'volumeattachments.storage': { path: '/apis/storage.k8s.io/v1/volumeattachments', body: { spec: { attacher: 'a.example.com', nodeName: 'n', source: { persistentVolumeName: 'pv' } } } },
  'csistoragecapacities.storage': { path: '/apis/storage.k8s.io/v1/namespaces/default/csistoragecapacities', body: { storageClassName: 'sc' } },
  'priorityclasses.scheduling': { path: '/apis/scheduling.k8s.io/v1/priorityclasses', body: { value: 1 } },
  'runtimeclasses.node': { path: '/apis/node.k8s.io/v1/runtimeclasses', body: { handler: 'runc' } },
  'validatingwebhookconfigurations.admissionregistration': {
    path: '/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations',
    body: { webhooks: [{ name: 'sample.example.com', clientConfig: { url: 'https://sample.example.com/' }, rules: [{ operations: ['CREATE'], apiGroups: ['sample.example.com'], apiVersions: ['v1'], resources: ['samples'] }], sideEffects: 'None', admissionReviewVersions: ['v1'] }] },
  },
  'mutatingwebhookconfigurations.admissionregistration': {
    path: '/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations',
    body: { webhooks: [{ name: 'sample.example.com', clientConfig: { url: 'https://sample.example.com/' }, rules: [{ operations: ['CREATE'], apiGroups: ['sample.example.com'], apiVersions: ['v1'], resources: ['samples'] }], sideEffects: 'None', admissionReviewVersions: ['v1'] }] },
  },
  'endpointslices.discovery': { path: '/apis/discovery.k8s.io/v1/namespaces/default/endpointslices', body: { addressType: 'IPv4', endpoints: [] } },
  'horizontalpodautoscalers.autoscaling@v2': { path: '/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers', body: { spec: { scaleTargetRef: { kind: 'Deployment', name: 'd' }, maxReplicas: 2 } } },
  'horizontalpodautoscalers.autoscaling@v1': { path: '/apis/autoscaling/v1/namespaces/default/horizontalpodautoscalers', body: { spec: { scaleTargetRef: { kind: 'Deployment', name: 'd' }, maxReplicas: 2 } } },
  'flowschemas.flowcontrol.apiserver@v1beta3': { path: '/apis/flowcontrol.apiserver.k8s.io/v1beta3/flowschemas', body: { spec: { priorityLevelConfiguration: { name: 'global-default' } } } },
  'flowschemas.flowcontrol.apiserver@v1beta2': { path: '/apis/flowcontrol.apiserver.k8s.io/v1beta2/flowschemas', body: { spec: { priorityLevelConfiguration: { name: 'global-default' } } } },
  'prioritylevelconfigurations.flowcontrol.apiserver@v1beta3': { path: '/apis/flowcontrol.apiserver.k8s.io/v1beta3/prioritylevelconfigurations', body: { spec: { type: 'Limited', limited: { limitResponse: { type: 'Reject' } } } } },
  'prioritylevelconfigurations.flowcontrol.apiserver@v1beta2': { path: '/apis/flowcontrol.apiserver.k8s.io/v1beta2/prioritylevelconfigurations', body: { spec: { type: 'Limited', limited: { limitResponse: { type: 'Reject' } } } } },
  'validatingadmissionpolicies.admissionregistration@v1beta1': { path: '/apis/admissionregistration.k8s.io/v1beta1/validatingadmissionpolicies', body: { spec: { matchConstraints: { resourceRules: [{ operations: ['CREATE'], apiGroups: ['sample.example.com'], apiVersions: ['v1'], resources: ['samples'] }] }, validations: [{ expression: 'true' }] } } },
  'validatingadmissionpolicybindings.admissionregistration@v1beta1': { path: '/apis/admissionregistration.k8s.io/v1beta1/validatingadmissionpolicybindings', body: { spec: { policyName: 'sample', validationActions: ['Deny'] } } },
  'validatingadmissionpolicies.admissionregistration@v1alpha1': { path: '/apis/admissionregistration.k8s.io/v1alpha1/validatingadmissionpolicies', body: { spec: { matchConstraints: { resourceRules: [{ operations: ['CREATE'], apiGroups: ['sample.example.com'], apiVersions: ['v1'], resources: ['samples'] }] }, validations: [{ expression: 'true' }] } } },
  'validatingadmissionpolicybindings.admissionregistration@v1alpha1': { path: '/apis/admissionregistration.k8s.io/v1alpha1/validatingadmissionpolicybindings', body: { spec: { policyName: 'sample', validationActions: ['Deny'] } } },
  // An APIService's name is `<version>.<group>`.
  'customresourcedefinitions.apiextensions': {
    path: '/apis/apiextensions.k8s.io/v1/customresourcedefinitions',
    body: { metadata: { name: 'samples.sample.example.com' }, spec: { group: 'sample.example.com', scope: 'Namespaced', names: { plural: 'samples', kind: 'Sample' }, versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object' } } }] } },
  },
  'apiservices.apiregistration': { path: '/apis/apiregistration.k8s.io/v1/apiservices', body: { metadata: { name: 'v1.sample.example.com' }, spec: { group: 'sample.example.com', version: 'v1', groupPriorityMinimum: 1, versionPriority: 1 } } },
};

test('every built-in resource accepts a minimal valid object, lists it and prints it as a table', async () => {
  // The legacy `bindings` has no objects of its own to list (create binds a pod; pod-binding.test.ts).
  for (const decl of builtinDeclarations.filter((d) => d.verbs === undefined || d.verbs.includes('list'))) {
    const key = decl.group === '' ? decl.plural : `${decl.plural}.${decl.group}`;
    // A kind served at two versions has a sample per version.
    const sample = samples[`${key}@${decl.version}`] ?? samples[key];
    assert.ok(sample, `a sample for ${key}`);
    const apiVersion = decl.group === '' ? decl.version : `${decl.groupQualified ? `${decl.group}.k8s.io` : decl.group}/${decl.version}`;
    // A read-only kind (componentstatuses) has objects of the server's own to list.
    if (decl.verbs === undefined || decl.verbs.includes('create')) {
      // A kind stored in another's collection (events.k8s.io Events in core/v1's) needs a name of its own.
      const name = decl.storedAs === undefined ? `sample-${decl.singular}` : `sample-${decl.singular}-${decl.group}`;
      const res = await s.client.call('POST', sample.path, { body: { apiVersion, kind: decl.kind, metadata: { name }, ...sample.body } });
      assert.equal(res.status, 201, `${key}: ${res.text}`);
    }
    const table = await s.client.call('GET', sample.path, { headers: { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' } });
    assert.equal(table.status, 200, `${key}: ${table.text}`);
    const rows = (table.json as { rows: { cells: unknown[] }[] }).rows;
    assert.ok(rows.length >= 1, key);
  }
});

test('kind defaults: secrets fold stringData, services default type and ports, PVs and PVCs default modes', async () => {
  const secret = (await s.client.call('GET', '/api/v1/namespaces/default/secrets/sample-secret')).json as { data: Record<string, string>; type: string; stringData?: unknown };
  assert.deepEqual(secret.data, { a: Buffer.from('b').toString('base64') });
  assert.equal(secret.type, 'Opaque');
  assert.equal(secret.stringData, undefined);
  const svc = (await s.client.call('GET', '/api/v1/namespaces/default/services/sample-service')).json as { spec: { type: string; ports: { protocol: string; targetPort: number }[] } };
  assert.equal(svc.spec.type, 'ClusterIP');
  assert.deepEqual(svc.spec.ports[0], { port: 80, protocol: 'TCP', targetPort: 80 });
  const pv = (await s.client.call('GET', '/api/v1/persistentvolumes/sample-persistentvolume')).json as { spec: Record<string, unknown>; status: Record<string, unknown> };
  assert.equal(pv.spec.persistentVolumeReclaimPolicy, 'Retain');
  assert.equal(pv.status.phase, 'Pending');
  const sts = (await s.client.call('GET', '/apis/apps/v1/namespaces/default/statefulsets/sample-statefulset')).json as { spec: { updateStrategy: { type: string } } };
  assert.equal(sts.spec.updateStrategy.type, 'RollingUpdate');
  const ds = (await s.client.call('GET', '/apis/apps/v1/namespaces/default/daemonsets/sample-daemonset')).json as { spec: { updateStrategy: { type: string } } };
  assert.equal(ds.spec.updateStrategy.type, 'RollingUpdate');
  const pod = (await s.client.call('GET', '/api/v1/namespaces/default/pods/sample-pod')).json as { spec: { restartPolicy: string; containers: { imagePullPolicy: string }[] } };
  assert.equal(pod.spec.restartPolicy, 'Always');
  assert.equal(pod.spec.containers[0]?.imagePullPolicy, 'IfNotPresent');
});

test('a deployment without a selector, or with one that misses the template labels, is invalid', async () => {
  const path = '/apis/apps/v1/namespaces/default/deployments';
  const none = await s.client.call('POST', path, { body: { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'nosel' }, spec: { template: podTemplate } } });
  assert.equal(none.status, 422);
  const mismatch = await s.client.call('POST', path, { body: { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'mis' }, spec: { selector: { matchLabels: { app: 'other' } }, template: podTemplate } } });
  assert.equal(mismatch.status, 422);
  assert.match((mismatch.json as { message: string }).message, /selector` does not match template `labels`/);
});

test('beginShutdown makes /readyz fail while other requests are still served', async () => {
  const other = await startTestServer();
  try {
    other.server.beginShutdown();
    const ready = await other.client.call('GET', '/readyz?verbose');
    assert.equal(ready.status, 500);
    assert.match(ready.text, /\[-\]shutdown failed/);
    assert.equal((await other.client.call('GET', '/livez')).status, 200);
    assert.equal((await other.client.call('GET', '/api/v1/namespaces')).status, 200);
  } finally {
    await other.close();
  }
});
