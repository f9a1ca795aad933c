// kubectl's generators for the batch, networking, RBAC, scheduling and policy kinds against one
// server: each object is created as kubectl builds it, defaulted as kube-apiserver 1.28 does, and
// shown by `kubectl get` with upstream's columns; componentstatuses answer read-only.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { startTestServer } from './harness.ts';
import { kubectlPath, kubectlSession } from './kubectl-session.ts';


test('kubectl create job, cronjob, ingress, role, priorityclass and pdb work; get shows upstream columns', { skip: !existsSync(kubectlPath) && 'kubectl not installed' }, async (t) => {
  const s = await startTestServer();
  const session = kubectlSession(s, 'orch-kubectl-kinds-');
  t.after(async () => {
    await s.close();
    session.remove();
  });
  const kubectlFull = session.full;
  const kubectl = async (...args: string[]) => (await kubectlFull(...args)).stdout;

  assert.equal(await kubectl('create', 'job', 'x', '--image=busybox'), 'job.batch/x created\n');
  const job = JSON.parse(await kubectl('get', 'job', 'x', '-o', 'json')) as { metadata: { uid: string; labels: Record<string, string> }; spec: Record<string, unknown> & { selector: unknown; template: { metadata: { labels: Record<string, string> } } }; status: unknown };
  const uid = job.metadata.uid;
  assert.deepEqual(job.spec.selector, { matchLabels: { 'batch.kubernetes.io/controller-uid': uid } });
  const generated = { 'batch.kubernetes.io/controller-uid': uid, 'batch.kubernetes.io/job-name': 'x', 'controller-uid': uid, 'job-name': 'x' };
  assert.deepEqual(job.spec.template.metadata.labels, generated);
  assert.deepEqual(job.metadata.labels, generated, 'a Job without labels takes its template labels');
  assert.deepEqual([job.spec.parallelism, job.spec.completions, job.spec.backoffLimit, job.spec.completionMode, job.spec.suspend, job.spec.manualSelector], [1, 1, 6, 'NonIndexed', false, false]);
  assert.equal(job.spec.podReplacementPolicy, undefined, 'JobPodReplacementPolicy is alpha (off) in 1.28');
  assert.deepEqual(job.status, {});
  assert.match(await kubectl('get', 'jobs'), /^NAME\s+COMPLETIONS\s+DURATION\s+AGE\nx\s+0\/1\s+\d+s\n$/);
  assert.match(await kubectl('get', 'jobs', '-o', 'wide'), /^NAME\s+COMPLETIONS\s+DURATION\s+AGE\s+CONTAINERS\s+IMAGES\s+SELECTOR\nx\s+0\/1\s+\d+s\s+x\s+busybox\s+batch\.kubernetes\.io\/controller-uid=[-0-9a-f]+\n$/);

  assert.equal(await kubectl('create', 'cronjob', 'x', '--image=busybox', '--schedule=*/1 * * * *'), 'cronjob.batch/x created\n');
  const cron = JSON.parse(await kubectl('get', 'cj', 'x', '-o', 'json')) as { spec: Record<string, unknown> };
  assert.deepEqual([cron.spec.concurrencyPolicy, cron.spec.suspend, cron.spec.successfulJobsHistoryLimit, cron.spec.failedJobsHistoryLimit], ['Allow', false, 3, 1]);
  assert.match(await kubectl('get', 'cronjobs'), /^NAME\s+SCHEDULE\s+SUSPEND\s+ACTIVE\s+LAST SCHEDULE\s+AGE\nx\s+\*\/1 \* \* \* \*\s+False\s+0\s+<none>\s+\d+s\n$/);

  assert.equal(await kubectl('create', 'ingress', 'x', '--rule=foo.com/bar=svc1:8080'), 'ingress.networking.k8s.io/x created\n');
  assert.match(await kubectl('get', 'ing'), /^NAME\s+CLASS\s+HOSTS\s+ADDRESS\s+PORTS\s+AGE\nx\s+<none>\s+foo\.com\s+80\s+\d+s\n$/);

  assert.equal(await kubectl('create', 'role', 'x', '--verb=get', '--resource=pods'), 'role.rbac.authorization.k8s.io/x created\n');
  assert.match(await kubectl('get', 'roles'), /^NAME\s+CREATED AT\nx\s+\d{4}-\d\d-\d\dT/);
  assert.equal(await kubectl('create', 'rolebinding', 'x', '--role=x', '--serviceaccount=default:default'), 'rolebinding.rbac.authorization.k8s.io/x created\n');
  assert.match(await kubectl('get', 'rolebindings', '-o', 'wide'), /^NAME\s+ROLE\s+AGE\s+USERS\s+GROUPS\s+SERVICEACCOUNTS\nx\s+Role\/x\s+\d+s\s+default\/default\n$/);

  assert.equal(await kubectl('create', 'priorityclass', 'x', '--value=1000'), 'priorityclass.scheduling.k8s.io/x created\n');
  assert.match(await kubectl('get', 'pc'), /^NAME\s+VALUE\s+GLOBAL-DEFAULT\s+AGE\nx\s+1000\s+false\s+\d+s\n$/);
  assert.equal(await kubectl('get', 'pc', 'x', '-o', 'jsonpath={.preemptionPolicy}'), 'PreemptLowerPriority');

  assert.equal(await kubectl('create', 'pdb', 'x', '--selector=app=x', '--min-available=1'), 'poddisruptionbudget.policy/x created\n');
  assert.match(await kubectl('get', 'pdb'), /^NAME\s+MIN AVAILABLE\s+MAX UNAVAILABLE\s+ALLOWED DISRUPTIONS\s+AGE\nx\s+1\s+N\/A\s+0\s+\d+s\n$/);

  const cs = await kubectlFull('get', 'componentstatuses');
  assert.match(cs.stdout, /^NAME\s+STATUS\s+MESSAGE\s+ERROR\netcd-0\s+Healthy\s+ok\s*\n$/);
  assert.match(cs.stderr, /Warning: v1 ComponentStatus is deprecated in v1\.19\+/);

  assert.match(await kubectl('explain', 'cronjob.spec.schedule'), /The schedule in Cron format/);
  const resources = await kubectl('api-resources');
  assert.match(resources, /cronjobs\s+cj\s+batch\/v1\s+true\s+CronJob/);
  assert.match(resources, /componentstatuses\s+cs\s+v1\s+false\s+ComponentStatus/);
  assert.match(resources, /replicationcontrollers\s+rc\s+v1\s+true\s+ReplicationController/);
  assert.match(resources, /priorityclasses\s+pc\s+scheduling\.k8s\.io\/v1\s+false\s+PriorityClass/);
});
