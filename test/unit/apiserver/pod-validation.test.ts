// Containers are validated as kube-apiserver validates them, with its field paths and messages,
// in pods and in every pod template.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './harness.ts';

let s: TestServer;
before(async () => {
  s = await startTestServer();
});
after(() => s.close());

type Json = Record<string, unknown>;
type Status = { code: number; reason: string; message: string; details?: { causes?: { field: string; message: string; reason: string }[] } };
const podPath = '/api/v1/namespaces/default/pods';

const pod = (name: string, container: Json, spec: Json = {}): Json => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { containers: [{ name: 'c', image: 'nginx:1.25', ...container }], ...spec } });

async function causes(body: Json, path = podPath): Promise<[string, string][]> {
  const r = await s.client.call('POST', path, { body });
  assert.equal(r.status, 422, r.text);
  const status = r.json as Status;
  assert.equal(status.reason, 'Invalid');
  return (status.details?.causes ?? []).map((c) => [c.field, c.message]);
}

test('a container with ports, env, resources, policies and mounts as kube-apiserver accepts them is stored', async () => {
  const r = await s.client.call('POST', podPath, {
    body: pod('ok', {
      ports: [{ name: 'http', containerPort: 80 }, { containerPort: 53, protocol: 'UDP' }],
      env: [{ name: 'MY_VAR.x-1', value: 'v' }],
      resources: { requests: { cpu: '500m', memory: '1Gi' }, limits: { cpu: 1, memory: '1Gi' } },
      imagePullPolicy: 'IfNotPresent',
      volumeMounts: [{ name: 'data', mountPath: '/data' }],
    }, { volumes: [{ name: 'data', emptyDir: {} }] }),
  });
  assert.equal(r.status, 201, r.text);
});

test('ports: out of range, an unknown protocol, a bad or duplicate name', async () => {
  assert.deepEqual(await causes(pod('p1', { ports: [{ containerPort: 70000 }, { containerPort: 80, hostPort: 65536 }, { containerPort: 81, protocol: 'ICMP' }, { name: 'Http_1', containerPort: 82 }, { name: 'web', containerPort: 83 }, { name: 'web', containerPort: 84 }] })), [
    ['spec.containers[0].ports[0].containerPort', 'Invalid value: 70000: must be between 1 and 65535, inclusive'],
    ['spec.containers[0].ports[1].hostPort', 'Invalid value: 65536: must be between 1 and 65535, inclusive'],
    ['spec.containers[0].ports[2].protocol', 'Unsupported value: "ICMP": supported values: "SCTP", "TCP", "UDP"'],
    ['spec.containers[0].ports[3].name', 'Invalid value: "Http_1": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)'],
    ['spec.containers[0].ports[5].name', 'Duplicate value: "web"'],
  ]);
});

test('resources: a request above its limit, a negative quantity', async () => {
  assert.deepEqual(await causes(pod('p2', { resources: { requests: { cpu: '2', memory: '-1' }, limits: { cpu: '1500m' } } })), [
    ['spec.containers[0].resources.requests[memory]', 'Invalid value: "-1": must be greater than or equal to 0'],
    ['spec.containers[0].resources.requests[cpu]', 'Invalid value: "2": must be less than or equal to cpu limit of 1500m'],
  ]);
});

test('env names, pull policy and mounts of a volume the pod does not have', async () => {
  assert.deepEqual(await causes(pod('p3', { env: [{ name: '1BAD', value: 'x' }], imagePullPolicy: 'Sometimes', volumeMounts: [{ name: 'nope', mountPath: '/x' }] })), [
    ['spec.containers[0].env[0].name', 'Invalid value: "1BAD": a valid environment variable name must consist of alphabetic characters, digits, \'_\', \'-\', or \'.\', and must not start with a digit (e.g. \'my.env-name\',  or \'MY_ENV.NAME\',  or \'MyEnvName1\', regex used for validation is \'[-._a-zA-Z][-._a-zA-Z0-9]*\')'],
    ['spec.containers[0].volumeMounts[0].name', 'Not found: "nope"'],
    ['spec.containers[0].imagePullPolicy', 'Unsupported value: "Sometimes": supported values: "Always", "IfNotPresent", "Never"'],
  ]);
});

test('restart and DNS policies are among kube-apiserver\'s values', async () => {
  assert.deepEqual(await causes(pod('p4', {}, { restartPolicy: 'Sometimes', dnsPolicy: 'Google' })), [
    ['spec.restartPolicy', 'Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"'],
    ['spec.dnsPolicy', 'Unsupported value: "Google": supported values: "ClusterFirstWithHostNet", "ClusterFirst", "Default", "None"'],
  ]);
});

test('a deployment\'s template containers are validated the same way, under the template\'s path', async () => {
  const labels = { app: 'v' };
  const body = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd' }, spec: { selector: { matchLabels: labels }, template: { metadata: { labels }, spec: { containers: [{ name: 'c', image: 'i', ports: [{ containerPort: 0 }] }] } } } };
  const found = await causes(body, '/apis/apps/v1/namespaces/default/deployments');
  assert.ok(found.some(([f, m]) => f === 'spec.template.spec.containers[0].ports[0].containerPort' && m === 'Required value'), JSON.stringify(found));
});
