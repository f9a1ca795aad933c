// kubectl against the autoscaling, flowcontrol and apiregistration groups: `kubectl autoscale`
// makes an HPA that `kubectl get hpa` shows with upstream's columns, the default FlowSchemas and
// local APIServices are listed, and api-resources / api-versions name the new groups.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { startTestServer } from './harness.ts';
import { kubectlPath, kubectlSession } from './kubectl-session.ts';


test('kubectl autoscale, get hpa, get apiservices and get flowschemas work; discovery names the groups', { skip: !existsSync(kubectlPath) && 'kubectl not installed' }, async (t) => {
  const s = await startTestServer();
  const session = kubectlSession(s, 'orch-kubectl-hpa-');
  t.after(async () => {
    await s.close();
    session.remove();
  });
  const kubectl = session.run;

  assert.equal(await kubectl('create', 'deployment', 'x', '--image=nginx'), 'deployment.apps/x created\n');
  assert.equal(await kubectl('autoscale', 'deployment', 'x', '--max=5', '--cpu-percent=70'), 'horizontalpodautoscaler.autoscaling/x autoscaled\n');
  assert.match(await kubectl('get', 'hpa'), /^NAME\s+REFERENCE\s+TARGETS\s+MINPODS\s+MAXPODS\s+REPLICAS\s+AGE\nx\s+Deployment\/x\s+<unknown>\/70%\s+1\s+5\s+0\s+\d+s\n$/);
  const v1 = JSON.parse(await kubectl('get', 'horizontalpodautoscalers.v1.autoscaling', 'x', '-o', 'json')) as { spec: Record<string, unknown> };
  assert.deepEqual(v1.spec, { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'x' }, minReplicas: 1, maxReplicas: 5, targetCPUUtilizationPercentage: 70 });

  const apiservices = await kubectl('get', 'apiservices');
  assert.match(apiservices, /^NAME\s+SERVICE\s+AVAILABLE\s+AGE\n/);
  assert.match(apiservices, /^v1\.\s+Local\s+True\s+\d+s$/m);
  assert.match(apiservices, /^v2\.autoscaling\s+Local\s+True\s+\d+s$/m);
  assert.match(apiservices, /^v1beta3\.flowcontrol\.apiserver\.k8s\.io\s+Local\s+True\s+\d+s$/m);

  const flowschemas = await kubectl('get', 'flowschemas');
  assert.match(flowschemas, /^NAME\s+PRIORITYLEVEL\s+MATCHINGPRECEDENCE\s+DISTINGUISHERMETHOD\s+AGE\s+MISSINGPL\n/);
  assert.match(flowschemas, /^exempt\s+exempt\s+1\s+<none>\s+\d+s\s+\?$/m);
  assert.match(flowschemas, /^global-default\s+global-default\s+9900\s+ByUser\s+\d+s\s+\?$/m);
  assert.match(await kubectl('get', 'prioritylevelconfigurations'), /^workload-low\s+Limited\s+100\s+128\s+6\s+50\s+\d+s$/m);

  const resources = await kubectl('api-resources');
  assert.match(resources, /^horizontalpodautoscalers\s+hpa\s+autoscaling\/v2\s+true\s+HorizontalPodAutoscaler$/m);
  assert.match(resources, /^flowschemas\s+flowcontrol\.apiserver\.k8s\.io\/v1beta3\s+false\s+FlowSchema$/m);
  assert.match(resources, /^prioritylevelconfigurations\s+flowcontrol\.apiserver\.k8s\.io\/v1beta3\s+false\s+PriorityLevelConfiguration$/m);
  assert.match(resources, /^apiservices\s+apiregistration\.k8s\.io\/v1\s+false\s+APIService$/m);
  const versions = (await kubectl('api-versions')).split('\n');
  for (const v of ['autoscaling/v1', 'autoscaling/v2', 'flowcontrol.apiserver.k8s.io/v1beta2', 'flowcontrol.apiserver.k8s.io/v1beta3', 'apiregistration.k8s.io/v1']) assert.ok(versions.includes(v), v);
});
