import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startTestServer } from './harness.ts';
import { kubectlPath, kubectlSession } from './kubectl-session.ts';


test('kubectl works against a single server: get, create, -o yaml, api-resources, apply, scale, explain', { skip: !existsSync(kubectlPath) && 'kubectl not installed' }, async (t) => {
  const s = await startTestServer();
  const session = kubectlSession(s, 'orch-kubectl-');
  t.after(async () => {
    await s.close();
    session.remove();
  });
  const { dir } = session;
  const kubectl = session.run;
  // kube-public and kube-system: the bootstrap RBAC policy's Roles live there, and it makes them as kube-apiserver's does.
  assert.match(await kubectl('get', 'namespaces'), /^NAME\s+STATUS\s+AGE\ndefault\s+Active\s+\d+s\nkube-public\s+Active\s+\d+s\nkube-system\s+Active\s+\d+s\norch-public\s+Active\s+\d+s\norch-system\s+Active\s+\d+s\n$/);
  assert.equal(await kubectl('create', 'configmap', 'c1', '--from-literal=a=b'), 'configmap/c1 created\n');
  const yaml = await kubectl('get', 'cm', 'c1', '-o', 'yaml');
  assert.match(yaml, /^apiVersion: v1\ndata:\n {2}a: b\nkind: ConfigMap\n/);
  const apiResources = await kubectl('api-resources');
  assert.match(apiResources, /deployments\s+deploy\s+apps\/v1\s+true\s+Deployment/);
  assert.match(apiResources, /leases\s+coordination.k8s.io\/v1\s+true\s+Lease/);
  const manifest = join(dir, 'cm.yaml');
  writeFileSync(manifest, 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: applied\ndata:\n  x: "1"\n');
  assert.equal(await kubectl('apply', '-f', manifest), 'configmap/applied created\n');
  writeFileSync(manifest, 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: applied\ndata:\n  x: "2"\n');
  assert.equal(await kubectl('apply', '-f', manifest), 'configmap/applied configured\n');
  assert.equal(await kubectl('get', 'cm', 'applied', '-o', 'jsonpath={.data.x}'), '2');
  await kubectl('create', 'deployment', 'web', '--image=nginx:1.25', '--port=80');
  assert.equal(await kubectl('set', 'image', 'deployment/web', 'nginx=nginx:1.26'), 'deployment.apps/web image updated\n');
  const container = JSON.parse(await kubectl('get', 'deploy', 'web', '-o', 'jsonpath={.spec.template.spec.containers[0]}')) as { image: string; ports: unknown[] };
  assert.equal(container.image, 'nginx:1.26');
  assert.deepEqual(container.ports, [{ containerPort: 80, protocol: 'TCP' }], 'a strategic merge patch keeps the other container fields');
  assert.equal(await kubectl('scale', 'deployment', 'web', '--replicas=3'), 'deployment.apps/web scaled\n');
  assert.match(await kubectl('get', 'deploy', 'web'), /^NAME\s+READY\s+UP-TO-DATE\s+AVAILABLE\s+AGE\nweb\s+0\/3\s+0\s+0\s+\d+s\n$/);
  assert.match(await kubectl('explain', 'deployment.spec.strategy'), /KIND:\s+Deployment/);
  // The official descriptions at any depth (the v1.28 OpenAPI documents themselves are served).
  const resources = await kubectl('explain', 'pod.spec.containers.resources');
  assert.match(resources, /FIELD: resources <ResourceRequirements>/);
  assert.match(resources, /Compute Resources required by this container\./);
  assert.match(resources, /limits\s+<map\[string\]Quantity>/);
  assert.match(await kubectl('explain', 'deployment.spec.template.spec.containers.ports.containerPort'), /Number of port to expose on the pod's IP address/);
  assert.equal(await kubectl('delete', 'cm', 'c1'), 'configmap "c1" deleted\n');
});
