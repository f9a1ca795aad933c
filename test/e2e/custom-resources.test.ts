// CustomResourceDefinitions end to end, through kubectl where a user meets them, on one real
// 3-process cluster: a CRD with a schema, defaults, a CEL rule, printer columns, a status and a
// scale sub-resource is applied through one replica and served by all; objects are created through
// each replica, validated (422 with the rule's message), pruned (or refused under Strict),
// defaulted, listed with the printer columns, explained, applied server-side, scaled, used by the
// Python client; deleting the CRD removes its objects. On the same cluster (started with the
// policy kinds turned on), a ValidatingAdmissionPolicy with a ConfigMap param denies and warns.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { pythonClientMissing, pythonPath } from '../support/python-client.ts';
import { eventually, failed, startAdmissionCluster, type AdmissionCluster } from '../support/admission-cluster.ts';
import { succeeded } from '../support/kubectl-runner.ts';

const crd = `
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: crontabs.stable.example.com
spec:
  group: stable.example.com
  scope: Namespaced
  names:
    plural: crontabs
    singular: crontab
    kind: CronTab
    shortNames: [ct]
    categories: [all-crons]
  versions:
  - name: v1
    served: true
    storage: true
    subresources:
      status: {}
      scale:
        specReplicasPath: .spec.replicas
        statusReplicasPath: .status.replicas
    additionalPrinterColumns:
    - name: Spec
      type: string
      jsonPath: .spec.cronSpec
      description: The cron spec defining the interval a CronJob is run
    - name: Replicas
      type: integer
      jsonPath: .spec.replicas
    - name: Age
      type: date
      jsonPath: .metadata.creationTimestamp
    schema:
      openAPIV3Schema:
        type: object
        description: A CronTab runs an image on a schedule.
        properties:
          spec:
            type: object
            description: What the CronTab runs and when.
            x-kubernetes-validations:
            - rule: self.replicas <= self.maxReplicas
              message: replicas must not exceed maxReplicas
            required: [cronSpec]
            properties:
              cronSpec:
                type: string
                description: The schedule, in cron format.
                pattern: '^(\\d+|\\*)(/\\d+)?(\\s+(\\d+|\\*)(/\\d+)?){4}$'
              image:
                type: string
                default: nginx
              replicas:
                type: integer
                minimum: 0
                default: 1
              maxReplicas:
                type: integer
                default: 5
              tags:
                type: array
                x-kubernetes-list-type: set
                items:
                  type: string
          status:
            type: object
            properties:
              replicas:
                type: integer
`;

// The Debian Python client's CustomObjectsApi: creates a CronTab, reads it back, lists the kind,
// then tries one the rule refuses; prints what it saw, one line each.
const pythonCustomObjects = `
import sys, json, kubernetes
configuration = kubernetes.client.Configuration()
configuration.host = sys.argv[1]
configuration.ssl_ca_cert = sys.argv[2]
configuration.api_key = {'authorization': 'Bearer ' + sys.argv[3]}
api = kubernetes.client.CustomObjectsApi(kubernetes.client.ApiClient(configuration))
ns = sys.argv[4]
body = {'apiVersion': 'stable.example.com/v1', 'kind': 'CronTab', 'metadata': {'name': 'from-python'}, 'spec': {'cronSpec': '0 0 * * *'}}
api.create_namespaced_custom_object('stable.example.com', 'v1', ns, 'crontabs', body)
got = api.get_namespaced_custom_object('stable.example.com', 'v1', ns, 'crontabs', 'from-python')
print('spec:' + json.dumps(got['spec'], sort_keys=True))
items = api.list_namespaced_custom_object('stable.example.com', 'v1', ns, 'crontabs')['items']
print('listed:' + str('from-python' in [i['metadata']['name'] for i in items]))
try:
    bad = {'apiVersion': 'stable.example.com/v1', 'kind': 'CronTab', 'metadata': {'name': 'py-bad'}, 'spec': {'cronSpec': '0 0 * * *', 'replicas': 9, 'maxReplicas': 1}}
    api.create_namespaced_custom_object('stable.example.com', 'v1', ns, 'crontabs', bad)
    print('refused:none')
except kubernetes.client.exceptions.ApiException as error:
    print('refused:%d:%s' % (error.status, json.loads(error.body)['details']['causes'][0]['message']))
`;

function runPython(args: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(pythonPath, ['-c', pythonCustomObjects, ...args], { timeout: 60_000 }, (error, stdout, stderr) => {
      resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : -1, stdout, stderr });
    });
  });
}

function cronTab(name: string, namespace: string, spec: Record<string, unknown>): string {
  return JSON.stringify({ apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name, namespace }, spec });
}

test('CustomResourceDefinitions through kubectl on real replicas: schema, defaults, CEL rule, pruning, printer columns, explain, server-side apply, scale, deletion', { timeout: 600_000 }, async (t) => {
  const started: { cluster?: AdmissionCluster } = {};
  t.after(async () => {
    await started.cluster?.stop();
  });
  // The policy kinds are off by default in 1.28: this cluster turns them on, as a user would.
  const c = await startAdmissionCluster(['--runtime-config=admissionregistration.k8s.io/v1beta1=true', '--feature-gates=ValidatingAdmissionPolicy=true']);
  started.cluster = c;
  const { kubectl } = c;
  const ns = 'crons';
  await c.namespace(ns);
  succeeded(await c.apply(0, crd), 'apply crd');
  succeeded(await kubectl(0, ['wait', '--for=condition=Established', 'crd/crontabs.stable.example.com', '--timeout=60s']), 'wait established');
  // Every replica serves the kind within a watch event of the definition becoming established.
  for (const replica of [0, 1, 2]) {
    await eventually(`replica ${replica} serves crontabs`, async () => (await c.fixture.clients[replica]?.call('GET', `/apis/stable.example.com/v1/namespaces/${ns}/crontabs`))?.status === 200);
  }

  await t.test('objects created through each replica get the schema defaults and the names the CRD gives', async () => {
    for (const replica of [0, 1, 2]) {
      succeeded(await kubectl(replica, ['create', '-f', c.manifest(`ct${replica}.json`, cronTab(`ct${replica}`, ns, { cronSpec: '*/5 * * * *' }))]), `create ct${replica}`);
    }
    const got = JSON.parse(succeeded(await kubectl(2, ['get', 'ct', 'ct0', '-n', ns, '-o', 'json']), 'get ct0')) as { spec: Record<string, unknown>; metadata: { generation: number } };
    assert.deepEqual(got.spec, { cronSpec: '*/5 * * * *', image: 'nginx', replicas: 1, maxReplicas: 5 });
    assert.equal(got.metadata.generation, 1);
    const names = succeeded(await kubectl(1, ['get', 'all-crons', '-n', ns, '-o', 'name']), 'get by category');
    assert.deepEqual(names.trim().split('\n').sort(), ['crontab.stable.example.com/ct0', 'crontab.stable.example.com/ct1', 'crontab.stable.example.com/ct2']);
  });

  await t.test('an object breaking the CEL rule or the schema is refused with 422 and the rule\'s message', async () => {
    const rule = failed(await kubectl(1, ['create', '-f', c.manifest('too-many.json', cronTab('too-many', ns, { cronSpec: '* * * * *', replicas: 9, maxReplicas: 3 }))]), 'create too-many');
    assert.match(rule, /The CronTab "too-many" is invalid: spec: Invalid value: "object": replicas must not exceed maxReplicas/);
    const pattern = failed(await kubectl(2, ['create', '-f', c.manifest('bad-spec.json', cronTab('bad-spec', ns, { cronSpec: 'often' }))]), 'create bad-spec');
    assert.match(pattern, /spec\.cronSpec: Invalid value: "often": spec\.cronSpec in body should match/);
    const type = failed(await kubectl(0, ['create', '-f', c.manifest('bad-type.json', cronTab('bad-type', ns, { cronSpec: '* * * * *', replicas: 'two' }))]), 'create bad-type');
    assert.match(type, /spec\.replicas: Invalid value: "string": spec\.replicas in body must be of type integer: "string"/);
    const missing = failed(await kubectl(0, ['create', '-f', c.manifest('no-spec.json', cronTab('no-spec', ns, { image: 'x' }))]), 'create no-spec');
    assert.match(missing, /spec\.cronSpec: Required value/);
  });

  await t.test('an unknown field is pruned, or refused under fieldValidation=Strict', async () => {
    const manifest = c.manifest('extra.json', cronTab('extra', ns, { cronSpec: '* * * * *', color: 'blue' }));
    const strict = failed(await kubectl(0, ['create', '-f', manifest, '--validate=strict']), 'create extra strict');
    assert.match(strict, /unknown field "spec\.color"/);
    succeeded(await kubectl(1, ['create', '-f', manifest, '--validate=false']), 'create extra');
    const spec = JSON.parse(succeeded(await kubectl(2, ['get', 'crontab', 'extra', '-n', ns, '-o', 'jsonpath={.spec}']), 'get extra')) as Record<string, unknown>;
    assert.equal(spec.color, undefined);
  });

  await t.test('kubectl get shows the printer columns', async () => {
    const table = succeeded(await kubectl(0, ['get', 'crontabs', '-n', ns]), 'get crontabs');
    const [header, first] = table.split('\n');
    assert.match(header ?? '', /^NAME\s+SPEC\s+REPLICAS\s+AGE$/);
    assert.match(first ?? '', /^ct0\s+\*\/5 \* \* \* \*\s+1\s+\d+s$/);
  });

  await t.test('kubectl explain describes the kind and its fields', async () => {
    await eventually('explain crontab', async () => /A CronTab runs an image on a schedule/.test((await kubectl(1, ['explain', 'crontab'])).stdout));
    const spec = succeeded(await kubectl(1, ['explain', 'crontab.spec.cronSpec']), 'explain crontab.spec.cronSpec');
    assert.match(spec, /The schedule, in cron format/);
  });

  await t.test('kubectl apply --server-side creates and updates a custom object, with managedFields', async () => {
    const manifest = (replicas: number): string => c.manifest(`ssa-${replicas}.json`, cronTab('ssa', ns, { cronSpec: '0 * * * *', replicas, tags: ['a', 'b'] }));
    succeeded(await kubectl(0, ['apply', '--server-side', '-f', manifest(2)]), 'apply ssa');
    succeeded(await kubectl(1, ['apply', '--server-side', '-f', manifest(3)]), 'apply ssa again');
    const got = JSON.parse(succeeded(await kubectl(2, ['get', 'crontab', 'ssa', '-n', ns, '-o', 'json', '--show-managed-fields']), 'get ssa')) as { spec: Record<string, unknown>; metadata: { managedFields: { manager: string; operation: string }[]; generation: number } };
    assert.equal(got.spec.replicas, 3);
    assert.equal(got.metadata.generation, 2);
    assert.ok(got.metadata.managedFields.some((f) => f.manager === 'kubectl' && f.operation === 'Apply'));
  });

  await t.test('kubectl scale writes the replicas through the scale sub-resource; status writes go through /status', async () => {
    succeeded(await kubectl(1, ['scale', 'crontab', 'ct1', '-n', ns, '--replicas=4']), 'scale ct1');
    assert.equal(succeeded(await kubectl(0, ['get', 'crontab', 'ct1', '-n', ns, '-o', 'jsonpath={.spec.replicas}']), 'get ct1'), '4');
    const tooMany = failed(await kubectl(2, ['scale', 'crontab', 'ct1', '-n', ns, '--replicas=7']), 'scale ct1 past maxReplicas');
    assert.match(tooMany, /replicas must not exceed maxReplicas/);
  });

  await t.test('the Debian Python client creates, reads and lists custom objects; the rule refuses it with 422', { skip: pythonClientMissing() ?? false }, async () => {
    const result = await runPython([c.fixture.cluster.replicas[2]?.apiUrl ?? '', join(c.fixture.dataDir, 'pki', 'ca.crt'), c.fixture.cluster.adminToken, ns]);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout, [
      'spec:{"cronSpec": "0 0 * * *", "image": "nginx", "maxReplicas": 5, "replicas": 1}',
      'listed:True',
      'refused:422:Invalid value: "object": replicas must not exceed maxReplicas',
      '',
    ].join('\n'));
  });

  await t.test('a ValidatingAdmissionPolicy with a ConfigMap param denies a Deployment over the limit, and a Warn binding warns', async () => {
    const pns = 'policed';
    await c.namespace(pns);
    await c.namespace('warned');
    succeeded(await c.apply(0, JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'limits', namespace: pns }, data: { maxReplicas: '3' } })), 'apply param');
    succeeded(await c.apply(1, JSON.stringify({
      apiVersion: 'admissionregistration.k8s.io/v1beta1', kind: 'ValidatingAdmissionPolicy', metadata: { name: 'max-replicas' },
      spec: {
        failurePolicy: 'Fail', paramKind: { apiVersion: 'v1', kind: 'ConfigMap' },
        matchConstraints: { resourceRules: [{ operations: ['CREATE', 'UPDATE'], apiGroups: ['apps'], apiVersions: ['v1'], resources: ['deployments'] }] },
        validations: [{ expression: 'object.spec.replicas <= int(params.data.maxReplicas)', messageExpression: "'replicas must be at most ' + params.data.maxReplicas" }],
      },
    })), 'apply policy');
    const binding = (name: string, namespace: string, actions: string[]): string => JSON.stringify({
      apiVersion: 'admissionregistration.k8s.io/v1beta1', kind: 'ValidatingAdmissionPolicyBinding', metadata: { name },
      spec: { policyName: 'max-replicas', validationActions: actions, paramRef: { name: 'limits', namespace: pns, parameterNotFoundAction: 'Deny' }, matchResources: { namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': namespace } } } },
    });
    succeeded(await c.apply(2, binding('deny-policed', pns, ['Deny'])), 'apply deny binding');
    succeeded(await c.apply(0, binding('warn-warned', 'warned', ['Warn'])), 'apply warn binding');
    const message = "ValidatingAdmissionPolicy 'max-replicas' with binding 'deny-policed' denied request: replicas must be at most 3";
    for (const replica of [0, 1, 2]) {
      await eventually(`replica ${replica} enforces the policy`, async () => (await kubectl(replica, ['create', 'deployment', 'probe', '-n', pns, '--image=nginx', '--replicas=5', '--dry-run=server'])).stderr.includes(message));
    }
    const denied = failed(await kubectl(1, ['create', 'deployment', 'big', '-n', pns, '--image=nginx', '--replicas=5']), 'create big');
    assert.ok(denied.includes(`deployments.apps "big" is forbidden: ${message}`), denied);
    succeeded(await kubectl(2, ['create', 'deployment', 'small', '-n', pns, '--image=nginx', '--replicas=2']), 'create small');
    await eventually('the Warn binding is in effect', async () => /Warning: Validation failed for ValidatingAdmissionPolicy 'max-replicas' with binding 'warn-warned': replicas must be at most 3/.test((await kubectl(0, ['create', 'deployment', 'probe', '-n', 'warned', '--image=nginx', '--replicas=5', '--dry-run=server'])).stderr));
    const warned = await kubectl(0, ['create', 'deployment', 'big', '-n', 'warned', '--image=nginx', '--replicas=5']);
    assert.equal(warned.code, 0, warned.stderr);
    assert.match(warned.stderr, /Warning: Validation failed for ValidatingAdmissionPolicy 'max-replicas' with binding 'warn-warned': replicas must be at most 3/);
  });

  await t.test('deleting the CRD deletes its objects and stops serving the kind', async () => {
    succeeded(await kubectl(2, ['delete', 'crd', 'crontabs.stable.example.com', '--timeout=60s']), 'delete crd');
    await eventually('crd gone', async () => (await c.fixture.clients[0]?.call('GET', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/crontabs.stable.example.com'))?.status === 404);
    for (const replica of [0, 1, 2]) {
      await eventually(`replica ${replica} no longer serves crontabs`, async () => (await c.fixture.clients[replica]?.call('GET', `/apis/stable.example.com/v1/namespaces/${ns}/crontabs`))?.status === 404);
    }
    // Applying the same CRD again starts with no objects: the old ones were removed, not hidden.
    succeeded(await c.apply(0, crd), 'apply crd again');
    succeeded(await kubectl(0, ['wait', '--for=condition=Established', 'crd/crontabs.stable.example.com', '--timeout=60s']), 'wait established again');
    await eventually('served again', async () => (await c.fixture.clients[1]?.call('GET', `/apis/stable.example.com/v1/namespaces/${ns}/crontabs`))?.status === 200);
    const list = await c.fixture.clients[1]?.call('GET', `/apis/stable.example.com/v1/namespaces/${ns}/crontabs`);
    assert.deepEqual((list?.json as { items: unknown[] }).items, []);
  });
});
