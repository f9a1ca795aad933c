// SPEC's deprecation Rule 2 through the HTTP API: in every built-in group served at more than one
// version, an object written through one version reads back through the other, and written back
// unchanged through that one, reads through the first exactly as before: HorizontalPodAutoscalers
// (autoscaling v1 and v2, the autoscaling.alpha.kubernetes.io annotations carrying what v1 lacks),
// FlowSchemas and PriorityLevelConfigurations (flowcontrol v1beta2 and v1beta3),
// ValidatingAdmissionPolicies and their bindings (admissionregistration v1alpha1 and v1beta1);
// SelfSubjectReviews (authentication v1, v1beta1, v1alpha1) store nothing and answer alike.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { everythingServed, startTestServer, type TestServer } from './harness.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

let s: TestServer;
before(async () => {
  s = await startTestServer({ serving: everythingServed });
});
after(() => s.close());

async function call(method: string, path: string, body?: unknown): Promise<{ status: number; json: Json; text: string }> {
  const res = await s.client.call(method, path, body === undefined ? {} : { body });
  return { status: res.status, json: res.json as Json, text: res.text };
}

/** An object as a comparison across writes sees it: without what every write changes. */
function comparable(o: Json): Json {
  const { resourceVersion: _rv, managedFields: _mf, ...metadata } = o.metadata as Json;
  return { ...o, metadata };
}

/**
 * Creates `object` through `first`, reads it there (A) and through `second`, writes that reading
 * back unchanged through `second`, and returns A with what `first` reads afterwards.
 */
async function roundTrip(first: string, second: string, object: Json): Promise<{ before: Json; through: Json; after: Json }> {
  const name = (object.metadata as Json).name as string;
  const created = await call('POST', first, object);
  assert.equal(created.status, 201, created.text);
  const before = (await call('GET', `${first}/${name}`)).json;
  const through = (await call('GET', `${second}/${name}`)).json;
  const written = await call('PUT', `${second}/${name}`, through);
  assert.equal(written.status, 200, written.text);
  const after = (await call('GET', `${first}/${name}`)).json;
  return { before, through, after };
}

const hpaV1 = '/apis/autoscaling/v1/namespaces/default/horizontalpodautoscalers';
const hpaV2 = '/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers';
const scaleTargetRef = { kind: 'Deployment', name: 'web', apiVersion: 'apps/v1' };

test('autoscaling v1 -> v2 -> v1: a v1 HPA with the metrics and behavior annotations comes back identical', async () => {
  const otherMetrics = [{ type: 'Pods', pods: { metricName: 'packets-per-second', targetAverageValue: '1k' } }, { type: 'External', external: { metricName: 'queue', metricSelector: { matchLabels: { queue: 'work' } }, targetAverageValue: '30' } }];
  const behavior = { ScaleUp: { StabilizationWindowSeconds: 0, SelectPolicy: 'Max', Policies: [{ Type: 'Pods', Value: 4, PeriodSeconds: 15 }] }, ScaleDown: { StabilizationWindowSeconds: 300, SelectPolicy: 'Min', Policies: [{ Type: 'Percent', Value: 10, PeriodSeconds: 60 }] } };
  const { before, through, after } = await roundTrip(hpaV1, hpaV2, {
    apiVersion: 'autoscaling/v1', kind: 'HorizontalPodAutoscaler',
    metadata: { name: 'v1-first', labels: { app: 'web' }, annotations: { team: 'a', 'autoscaling.alpha.kubernetes.io/metrics': JSON.stringify(otherMetrics), 'autoscaling.alpha.kubernetes.io/behavior': JSON.stringify(behavior) } },
    spec: { scaleTargetRef, minReplicas: 2, maxReplicas: 9, targetCPUUtilizationPercentage: 70 },
  });
  assert.deepEqual(through.spec.metrics.map((m: Json) => m.type), ['Pods', 'External', 'Resource'], 'v2 holds every metric, the cpu one last as kube appends it');
  assert.equal(through.spec.behavior.scaleDown.selectPolicy, 'Min');
  assert.deepEqual(through.metadata.annotations, { team: 'a' }, 'v2 shows no round-trip annotation');
  assert.deepEqual(comparable(after), comparable(before));
  assert.deepEqual(JSON.parse(after.metadata.annotations['autoscaling.alpha.kubernetes.io/metrics']), otherMetrics);
});

test('autoscaling v2 -> v1 -> v2: spec and status (current metrics, conditions) survive a write of the v1 reading, main resource and status', async () => {
  const created = await call('POST', hpaV2, {
    metadata: { name: 'v2-first' },
    spec: {
      scaleTargetRef, minReplicas: 1, maxReplicas: 5,
      metrics: [
        { type: 'Object', object: { describedObject: { kind: 'Ingress', name: 'main', apiVersion: 'networking.k8s.io/v1' }, metric: { name: 'rps' }, target: { type: 'Value', value: '10k' } } },
        { type: 'Resource', resource: { name: 'memory', target: { type: 'AverageValue', averageValue: '512Mi' } } },
        { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 60 } } },
      ],
    },
  });
  assert.equal(created.status, 201, created.text);
  const withStatus = { ...created.json, status: { currentReplicas: 2, desiredReplicas: 3, currentMetrics: [{ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: 40, averageValue: '200m' } } }], conditions: [{ type: 'ScalingActive', status: 'True', reason: 'ValidMetricFound', message: 'ok', lastTransitionTime: '2026-01-01T00:00:00Z' }] } };
  assert.equal((await call('PUT', `${hpaV2}/v2-first/status`, withStatus)).status, 200);
  const before = (await call('GET', `${hpaV2}/v2-first`)).json;
  const v1 = (await call('GET', `${hpaV1}/v2-first`)).json;
  const main = await call('PUT', `${hpaV1}/v2-first`, v1);
  assert.equal(main.status, 200, main.text);
  assert.deepEqual(comparable((await call('GET', `${hpaV2}/v2-first`)).json), comparable(before), 'the main resource write changed nothing');
  const status = await call('PUT', `${hpaV1}/v2-first/status`, { ...v1, metadata: { ...v1.metadata, resourceVersion: main.json.metadata.resourceVersion } });
  assert.equal(status.status, 200, status.text);
  const after = (await call('GET', `${hpaV2}/v2-first`)).json;
  assert.deepEqual(comparable(after), comparable(before));
});

const fcV1beta2 = '/apis/flowcontrol.apiserver.k8s.io/v1beta2';
const fcV1beta3 = '/apis/flowcontrol.apiserver.k8s.io/v1beta3';
const limited = (shares: string, name: string, value: number): Json => ({ metadata: { name }, spec: { type: 'Limited', limited: { [shares]: value, lendablePercent: 20, borrowingLimitPercent: 50, limitResponse: { type: 'Queue', queuing: { queues: 16, handSize: 4, queueLengthLimit: 40 } } } } });

test('flowcontrol v1beta3 -> v1beta2 -> v1beta3 and back: a priority level\'s shares are renamed and nothing is lost', async () => {
  const forward = await roundTrip(`${fcV1beta3}/prioritylevelconfigurations`, `${fcV1beta2}/prioritylevelconfigurations`, limited('nominalConcurrencyShares', 'rt-forward', 12));
  assert.equal(forward.through.spec.limited.assuredConcurrencyShares, 12);
  assert.equal(forward.through.spec.limited.nominalConcurrencyShares, undefined);
  assert.deepEqual(comparable(forward.after), comparable(forward.before));
  const backward = await roundTrip(`${fcV1beta2}/prioritylevelconfigurations`, `${fcV1beta3}/prioritylevelconfigurations`, limited('assuredConcurrencyShares', 'rt-backward', 3));
  assert.equal(backward.through.spec.limited.nominalConcurrencyShares, 3);
  assert.deepEqual(comparable(backward.after), comparable(backward.before));
});

test('flowcontrol v1beta2 -> v1beta3 -> v1beta2: a FlowSchema comes back identical', async () => {
  const { before, through, after } = await roundTrip(`${fcV1beta2}/flowschemas`, `${fcV1beta3}/flowschemas`, {
    metadata: { name: 'rt-flows', annotations: { note: 'x' } },
    spec: {
      priorityLevelConfiguration: { name: 'rt-forward' }, matchingPrecedence: 900, distinguisherMethod: { type: 'ByUser' },
      rules: [{ subjects: [{ kind: 'Group', group: { name: 'system:authenticated' } }], resourceRules: [{ verbs: ['get'], apiGroups: [''], resources: ['pods'], namespaces: ['*'] }], nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/healthz'] }] }],
    },
  });
  assert.equal(through.apiVersion, 'flowcontrol.apiserver.k8s.io/v1beta3');
  assert.deepEqual(through.spec, before.spec);
  assert.deepEqual(comparable(after), comparable(before));
});

const arV1alpha1 = '/apis/admissionregistration.k8s.io/v1alpha1';
const arV1beta1 = '/apis/admissionregistration.k8s.io/v1beta1';

test('admissionregistration v1alpha1 -> v1beta1 -> v1alpha1: a ValidatingAdmissionPolicy and its binding come back identical', async () => {
  const policy = await roundTrip(`${arV1alpha1}/validatingadmissionpolicies`, `${arV1beta1}/validatingadmissionpolicies`, {
    metadata: { name: 'rt-policy' },
    spec: {
      failurePolicy: 'Ignore',
      matchConstraints: { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE', 'UPDATE'], resources: ['configmaps'] }] },
      variables: [{ name: 'size', expression: 'size(object.data)' }],
      validations: [{ expression: 'variables.size < 10', messageExpression: '"too many keys"', reason: 'Invalid' }],
      auditAnnotations: [{ key: 'size', valueExpression: 'string(variables.size)' }],
    },
  });
  assert.equal(policy.through.apiVersion, 'admissionregistration.k8s.io/v1beta1');
  assert.deepEqual(policy.through.spec, policy.before.spec);
  assert.deepEqual(comparable(policy.after), comparable(policy.before));
  const binding = await roundTrip(`${arV1beta1}/validatingadmissionpolicybindings`, `${arV1alpha1}/validatingadmissionpolicybindings`, {
    metadata: { name: 'rt-binding' },
    spec: { policyName: 'rt-policy', validationActions: ['Warn', 'Audit'], matchResources: { namespaceSelector: { matchLabels: { env: 'test' } } } },
  });
  assert.deepEqual(binding.through.spec, binding.before.spec);
  assert.deepEqual(comparable(binding.after), comparable(binding.before));
});

test('authentication v1, v1beta1 and v1alpha1 answer a SelfSubjectReview alike, each in its own version', async () => {
  const answers = await Promise.all(['v1', 'v1beta1', 'v1alpha1'].map(async (version) => {
    const res = await call('POST', `/apis/authentication.k8s.io/${version}/selfsubjectreviews`, { apiVersion: `authentication.k8s.io/${version}`, kind: 'SelfSubjectReview' });
    assert.equal(res.status, 201, res.text);
    assert.equal(res.json.apiVersion, `authentication.k8s.io/${version}`);
    return res.json.status;
  }));
  assert.deepEqual(answers[1], answers[0]);
  assert.deepEqual(answers[2], answers[0]);
});
