// ValidatePodSpec's rules beyond the containers (volumes, host aliases, seccomp, tolerations, node
// affinity, topology spread, scheduling gates, preemption policy, OS), in pods and pod templates,
// with kube-apiserver v1.28's field paths and messages; nothing is stored.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './harness.ts';

let s: TestServer;
before(async () => {
  s = await startTestServer();
});
after(() => s.close());

type Json = Record<string, unknown>;
type Status = { details?: { causes?: { field: string; message: string }[] } };
const podPath = '/api/v1/namespaces/default/pods';
let count = 0;

async function causes(spec: Json): Promise<[string, string][]> {
  const name = `p${count++}`;
  const r = await s.client.call('POST', podPath, { body: { apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { containers: [{ name: 'c', image: 'i' }], ...spec } } });
  assert.equal(r.status, 422, r.text);
  assert.equal((await s.client.call('GET', `${podPath}/${name}`)).status, 404, 'nothing is stored');
  return ((r.json as Status).details?.causes ?? []).map((c) => [c.field, c.message]);
}

test('volumes: one source each (none is an emptyDir, as SetDefaults_Volume makes it), unique DNS-label names', async () => {
  assert.deepEqual(await causes({ volumes: [{ name: 'a', emptyDir: {}, hostPath: { path: '/x' } }, { name: 'b' }, { name: 'c', emptyDir: {} }, { name: 'c', emptyDir: {} }, { name: 'Bad_Name', configMap: { name: 'x' } }] }), [
    ['spec.volumes[0].hostPath', 'Forbidden: may not specify more than 1 volume type'],
    ['spec.volumes[3].name', 'Duplicate value: "c"'],
    ['spec.volumes[4].name', 'Invalid value: "Bad_Name": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or \'-\', and must start and end with an alphanumeric character (e.g. \'my-name\',  or \'123-abc\', regex used for validation is \'[a-z0-9]([-a-z0-9]*[a-z0-9])?\')'],
  ]);
});

test('tolerations: operator and effect among kube-apiserver\'s, Exists takes no value', async () => {
  assert.deepEqual(await causes({ tolerations: [{ key: 'k', operator: 'Maybe' }, { key: 'k', operator: 'Exists', value: 'v' }, { operator: 'Equal' }, { key: 'k', effect: 'Sometimes' }, { key: 'k', operator: 'Exists', tolerationSeconds: 5, effect: 'NoSchedule' }] }), [
    ['spec.tolerations[0].operator', 'Unsupported value: "Maybe": supported values: "Equal", "Exists"'],
    ['spec.tolerations[1].operator', 'Invalid value: core.Toleration{Key:"k", Operator:"Exists", Value:"v", Effect:"", TolerationSeconds:(*int64)(nil)}: value must be empty when `operator` is \'Exists\''],
    ['spec.tolerations[2].operator', 'Invalid value: "Equal": operator must be Exists when `key` is empty, which means "match all values and all keys"'],
    ['spec.tolerations[3].effect', 'Unsupported value: "Sometimes": supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"'],
    ['spec.tolerations[4].effect', 'Invalid value: "NoSchedule": effect must be \'NoExecute\' when `tolerationSeconds` is set'],
  ]);
});

test('host aliases, seccomp profile type, preemption policy and OS name', async () => {
  assert.deepEqual(await causes({ hostAliases: [{ ip: '999.1.1.1', hostnames: ['ok.example'] }], securityContext: { seccompProfile: { type: 'Strict' } }, preemptionPolicy: 'Always', os: { name: 'plan9' } }), [
    ['spec.os', 'Unsupported value: "plan9": supported values: "linux", "windows"'],
    ['spec.securityContext.seccompProfile.type', 'Unsupported value: "Strict": supported values: "Localhost", "RuntimeDefault", "Unconfined"'],
    ['spec.hostAliases[0].ip', 'Invalid value: "999.1.1.1": must be valid IP address'],
    ['spec.preemptionPolicy', 'Unsupported value: "Always": supported values: "PreemptLowerPriority", "Never"'],
  ]);
  assert.deepEqual(await causes({ containers: [{ name: 'c', image: 'i', securityContext: { seccompProfile: { type: 'Localhost' } } }] }), [
    ['spec.containers[0].securityContext.seccompProfile.localhostProfile', 'Required value: must be set when seccomp type is Localhost'],
  ]);
});

test('node affinity operators, topology spread constraints and scheduling gates', async () => {
  const affinity = { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'zone', operator: 'Near', values: ['a'] }, { key: 'zone', operator: 'In' }] }] } } };
  const topologySpreadConstraints = [{ maxSkew: 0, topologyKey: 'zone', whenUnsatisfiable: 'DoNotSchedule' }, { maxSkew: 1, topologyKey: '', whenUnsatisfiable: 'Never' }, { maxSkew: 1, topologyKey: 'zone', whenUnsatisfiable: 'DoNotSchedule' }];
  assert.deepEqual(await causes({ affinity, topologySpreadConstraints, schedulingGates: [{ name: 'example.com/gate' }, { name: 'example.com/gate' }, { name: 'bad gate' }] }), [
    ['spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].operator', 'Invalid value: "Near": not a valid selector operator'],
    ['spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[1].values', "Required value: must be specified when `operator` is 'In' or 'NotIn'"],
    ['spec.topologySpreadConstraints[0].maxSkew', 'Invalid value: 0: must be greater than zero'],
    ['spec.topologySpreadConstraints[0].{topologyKey, whenUnsatisfiable}', 'Duplicate value: "{zone, DoNotSchedule}"'],
    ['spec.topologySpreadConstraints[1].topologyKey', 'Required value: can not be empty'],
    ['spec.topologySpreadConstraints[1].whenUnsatisfiable', 'Unsupported value: "Never": supported values: "DoNotSchedule", "ScheduleAnyway"'],
    ['spec.schedulingGates[1]', 'Duplicate value: "example.com/gate"'],
    ['spec.schedulingGates[2]', 'Invalid value: "bad gate": name part must consist of alphanumeric characters, \'-\', \'_\' or \'.\', and must start and end with an alphanumeric character (e.g. \'MyName\',  or \'my.name\',  or \'123-abc\', regex used for validation is \'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]\')'],
  ]);
});

test('a pod template gets the same checks under its path, and a valid spec is stored', async () => {
  const labels = { app: 't' };
  const body = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd' }, spec: { selector: { matchLabels: labels }, template: { metadata: { labels }, spec: { containers: [{ name: 'c', image: 'i' }], volumes: [{ name: 'V', emptyDir: {} }], tolerations: [{ key: 'k', operator: 'Sometimes' }] } } } };
  const r = await s.client.call('POST', '/apis/apps/v1/namespaces/default/deployments', { body });
  assert.equal(r.status, 422, r.text);
  assert.deepEqual((r.json as Status).details?.causes?.map((c) => c.field), ['spec.template.spec.volumes[0].name', 'spec.template.spec.tolerations[0].operator']);
  const ok = await s.client.call('POST', podPath, {
    body: {
      apiVersion: 'v1', kind: 'Pod', metadata: { name: 'valid' },
      spec: {
        containers: [{ name: 'c', image: 'i', securityContext: { seccompProfile: { type: 'RuntimeDefault' } } }],
        volumes: [{ name: 'v', emptyDir: {} }], tolerations: [{ operator: 'Exists' }, { key: 'k', operator: 'Equal', value: 'v', effect: 'NoExecute', tolerationSeconds: 5 }],
        hostAliases: [{ ip: '10.0.0.1', hostnames: ['a.example'] }], preemptionPolicy: 'Never', os: { name: 'linux' }, schedulingGates: [{ name: 'example.com/g' }],
        topologySpreadConstraints: [{ maxSkew: 1, topologyKey: 'zone', whenUnsatisfiable: 'ScheduleAnyway' }],
        affinity: { nodeAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 5, preference: { matchExpressions: [{ key: 'zone', operator: 'Exists' }] } }] } },
      },
    },
  });
  assert.equal(ok.status, 201, ok.text);
});

test("a Pod gets kube-apiserver's defaults in its probes, handlers, field selectors, volumes and requests; a template only the spec's", async () => {
  const probe = { httpGet: { port: 80 } };
  const spec = {
    containers: [{
      name: 'c', image: 'i', livenessProbe: probe, lifecycle: { preStop: { httpGet: { port: 81 } } },
      env: [{ name: 'N', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } }, { name: 'M', valueFrom: { resourceFieldRef: { resource: 'limits.cpu' } } }],
      resources: { limits: { cpu: '1', memory: '1Gi' }, requests: { cpu: '500m' } },
    }],
    volumes: [{ name: 'bare' }, { name: 's', secret: { secretName: 'x' } }, { name: 'h', hostPath: { path: '/x' } }, { name: 'p', projected: { sources: [{ serviceAccountToken: { path: 't' } }] } }],
  };
  const created = await s.client.call('POST', podPath, { body: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'defaults' }, spec } });
  assert.equal(created.status, 201, created.text);
  const got = (created.json as { spec: Json }).spec as { containers: Json[]; volumes: Json[]; enableServiceLinks: boolean };
  const c = got.containers[0] as Record<string, Json>;
  assert.deepEqual(c.livenessProbe, { httpGet: { port: 80, path: '/', scheme: 'HTTP' }, timeoutSeconds: 1, periodSeconds: 10, successThreshold: 1, failureThreshold: 3 });
  assert.deepEqual((c.lifecycle as Record<string, Json>).preStop, { httpGet: { port: 81, path: '/', scheme: 'HTTP' } });
  assert.deepEqual(c.env, [
    { name: 'N', valueFrom: { fieldRef: { fieldPath: 'metadata.name', apiVersion: 'v1' } } },
    { name: 'M', valueFrom: { resourceFieldRef: { resource: 'limits.cpu', divisor: '0' } } },
  ]);
  assert.deepEqual(c.resources, { limits: { cpu: '1', memory: '1Gi' }, requests: { cpu: '500m', memory: '1Gi' } });
  assert.deepEqual(got.volumes, [
    { name: 'bare', emptyDir: {} },
    { name: 's', secret: { secretName: 'x', defaultMode: 420 } },
    { name: 'h', hostPath: { path: '/x', type: '' } },
    { name: 'p', projected: { sources: [{ serviceAccountToken: { path: 't', expirationSeconds: 3600 } }], defaultMode: 420 } },
  ]);
  assert.equal(got.enableServiceLinks, true);
  const deployment = await s.client.call('POST', '/apis/apps/v1/namespaces/default/deployments', { body: {
    apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'defaults' },
    spec: { selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'i', livenessProbe: probe, resources: { limits: { cpu: '1' } } }] } } },
  } });
  assert.equal(deployment.status, 201, deployment.text);
  const template = ((deployment.json as { spec: { template: { spec: Json } } }).spec.template.spec) as { containers: Json[]; enableServiceLinks?: boolean };
  assert.equal((template.containers[0] as Record<string, Json>).livenessProbe?.timeoutSeconds, 1);
  assert.deepEqual((template.containers[0] as Record<string, Json>).resources, { limits: { cpu: '1' } }, 'requests are copied from limits in a Pod only');
  assert.equal(template.enableServiceLinks, undefined);
});
