// Issue 26's versioning acceptance on one real 3-process cluster started with
// `--runtime-config=batch/v1=false,api/alpha=true`, seen as kubectl and a raw client see it: batch
// is gone from `kubectl api-versions` and `kubectl api-resources` and its paths answer 404; the
// alpha versions are served (authentication.k8s.io/v1alpha1, and admissionregistration.k8s.io/v1alpha1
// with its feature gate); a request to a deprecated version (flowcontrol v1beta2) carries kube's
// Warning, which kubectl prints, and sets apiserver_requested_deprecated_apis; a version kube no
// longer serves answers 404 naming its replacement, and kubectl does not know its kinds.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startClusterFixture } from '../support/cluster-fixture.ts';
import { callReplica } from '../support/auth-https.ts';
import { kubectlOn, succeeded } from '../support/kubectl-runner.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

test('--runtime-config on a 3-replica cluster: a group version off, the alpha versions on, deprecated and removed versions', { timeout: 120_000 }, async (t) => {
  const fixture = await startClusterFixture({ extraArgs: ['--runtime-config=batch/v1=false,api/alpha=true', '--feature-gates=ValidatingAdmissionPolicy=true'] });
  t.after(() => fixture.close());
  const kubectl = kubectlOn(fixture);
  const { cluster } = fixture;

  await t.test('batch is absent from kubectl api-versions and api-resources, and its paths answer 404 on every replica', async () => {
    const versions = succeeded(await kubectl(0, ['api-versions']), 'api-versions').split('\n');
    assert.ok(!versions.some((v) => v.startsWith('batch/')), versions.join(' '));
    assert.ok(versions.includes('authentication.k8s.io/v1alpha1') && versions.includes('admissionregistration.k8s.io/v1alpha1'), versions.join(' '));
    assert.ok(!versions.includes('admissionregistration.k8s.io/v1beta1') && !versions.includes('authentication.k8s.io/v1beta1'), 'betas off by default stay off');
    const resources = succeeded(await kubectl(1, ['api-resources', '-o', 'name']), 'api-resources').split('\n');
    assert.ok(!resources.includes('jobs.batch') && !resources.includes('cronjobs.batch'), resources.join(' '));
    const getJobs = await kubectl(2, ['get', 'jobs']);
    assert.notEqual(getJobs.code, 0);
    assert.match(getJobs.stderr, /the server doesn't have a resource type "jobs"/);
    for (const replica of [0, 1, 2]) {
      const answer = await callReplica(cluster, replica, '/apis/batch/v1/namespaces/default/jobs', { token: cluster.adminToken });
      assert.equal(answer.status, 404, answer.body);
      assert.equal((JSON.parse(answer.body) as Json).reason, 'NotFound');
    }
  });

  await t.test('the alpha versions are served: a SelfSubjectReview through authentication.k8s.io/v1alpha1, a policy through admissionregistration.k8s.io/v1alpha1', async () => {
    const review = await callReplica(cluster, 1, '/apis/authentication.k8s.io/v1alpha1/selfsubjectreviews', { method: 'POST', token: cluster.adminToken, body: { apiVersion: 'authentication.k8s.io/v1alpha1', kind: 'SelfSubjectReview' } });
    assert.equal(review.status, 201, review.body);
    assert.equal((JSON.parse(review.body) as Json).status.userInfo.username, 'orch-admin');
    const policy = { apiVersion: 'admissionregistration.k8s.io/v1alpha1', kind: 'ValidatingAdmissionPolicy', metadata: { name: 'e2e-alpha' }, spec: { matchConstraints: { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['configmaps'] }] }, validations: [{ expression: 'true' }] } };
    succeeded(await kubectl(0, ['create', '-f', '-'], JSON.stringify(policy)), 'create v1alpha1 policy');
    const read = succeeded(await kubectl(2, ['get', 'validatingadmissionpolicies.v1alpha1.admissionregistration.k8s.io', 'e2e-alpha', '-o', 'jsonpath={.apiVersion}']), 'get policy');
    assert.equal(read, 'admissionregistration.k8s.io/v1alpha1');
  });

  await t.test('a deprecated version answers with kube\'s Warning, kubectl prints it, and the gauge counts it', async () => {
    const listed = await kubectl(1, ['get', 'flowschemas.v1beta2.flowcontrol.apiserver.k8s.io']);
    assert.equal(listed.code, 0, listed.stderr);
    assert.match(listed.stderr, /Warning: flowcontrol\.apiserver\.k8s\.io\/v1beta2 FlowSchema is deprecated in v1\.26\+, unavailable in v1\.29\+; use flowcontrol\.apiserver\.k8s\.io\/v1beta3 FlowSchema/);
    const metrics = await callReplica(cluster, 1, '/metrics', { token: cluster.adminToken });
    assert.match(metrics.body, /^apiserver_requested_deprecated_apis\{group="flowcontrol\.apiserver\.k8s\.io",version="v1beta2",resource="flowschemas",subresource="",removed_release="1\.29"\} 1$/m);
  });

  await t.test('a removed version answers 404 NotFound naming its replacement, and kubectl does not know its kinds', async () => {
    const answer = await callReplica(cluster, 0, '/apis/batch/v1beta1/namespaces/default/cronjobs', { token: cluster.adminToken });
    assert.equal(answer.status, 404);
    const status = JSON.parse(answer.body) as Json;
    assert.equal(status.reason, 'NotFound');
    assert.equal(status.message, 'the server could not find the requested resource; batch/v1beta1 CronJob was removed in v1.25, use batch/v1 CronJob');
    const raw = await kubectl(0, ['get', '--raw', '/apis/extensions/v1beta1/namespaces/default/ingresses']);
    assert.match(raw.stderr, /Error from server \(NotFound\): the server could not find the requested resource; extensions\/v1beta1 Ingress was removed in v1\.22, use networking\.k8s\.io\/v1 Ingress/);
    const psp = await kubectl(1, ['get', 'podsecuritypolicies.v1beta1.policy']);
    assert.match(psp.stderr, /the server doesn't have a resource type "podsecuritypolicies"/);
  });
});
