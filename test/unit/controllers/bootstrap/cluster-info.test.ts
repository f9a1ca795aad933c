// orch's stand-in for kubeadm init: cluster-info and the anonymous reader's Role and RoleBinding
// in kube-public and orch-public, kubeadm's join bindings with bootstrap token authentication;
// created when missing, never overwritten.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parse } from 'yaml';
import { createControllers } from '../../../../internal/controllers/controllers.ts';
import { createClusterInfoPublisher } from '../../../../internal/controllers/bootstrap/cluster-info.ts';
import { parseControllerSelection } from '../../../../internal/controllers/controller-selection.ts';
import { ResourceRegistry } from '../../../../internal/registry/resource-registry.ts';
import { eventually } from '../garbage-collector-fixture.ts';
import { bootstrapFixture } from './bootstrap-fixture.ts';

const caBundle = '-----BEGIN CERTIFICATE-----\nMIIBclusterinfo\n-----END CERTIFICATE-----\n';
const apiServerUrl = 'https://10.0.0.1:6443';
const rbac = 'rbac.authorization.k8s.io';

test('cluster-info holds kubeadm\'s kubeconfig, and system:anonymous may get it, in both public namespaces', async (t) => {
  const f = await bootstrapFixture(t);
  f.run(createClusterInfoPublisher(f.deps, { apiServerUrl, caBundle, bootstrapTokenAuth: false }));
  for (const namespace of ['kube-public', 'orch-public']) {
    await eventually(`${namespace} objects`, async () => (await f.find('rolebindings', namespace, 'kubeadm:bootstrap-signer-clusterinfo', rbac)) !== undefined);
    const data = (await f.find('configmaps', namespace, 'cluster-info'))?.data as Record<string, string>;
    assert.deepEqual(Object.keys(data), ['kubeconfig']);
    const config = parse(data.kubeconfig!) as Record<string, unknown>;
    assert.deepEqual(config.clusters, [{ cluster: { 'certificate-authority-data': Buffer.from(caBundle).toString('base64'), server: apiServerUrl }, name: '' }]);
    assert.equal(config.kind, 'Config');
    const role = await f.find('roles', namespace, 'kubeadm:bootstrap-signer-clusterinfo', rbac);
    assert.deepEqual(role?.rules, [{ apiGroups: [''], resources: ['configmaps'], resourceNames: ['cluster-info'], verbs: ['get'] }]);
    const binding = await f.find('rolebindings', namespace, 'kubeadm:bootstrap-signer-clusterinfo', rbac);
    assert.deepEqual(binding?.subjects, [{ apiGroup: rbac, kind: 'User', name: 'system:anonymous' }]);
  }
  assert.equal(await f.find('clusterrolebindings', '', 'kubeadm:kubelet-bootstrap', rbac), undefined, 'no join bindings without bootstrap token auth');
  assert.deepEqual(f.logs, []);
});

test('with bootstrap token auth, kubeadm\'s join bindings; an existing cluster-info is not overwritten', async (t) => {
  const f = await bootstrapFixture(t);
  await f.store('', 'configmaps').create('kube-public', { metadata: { name: 'cluster-info' }, data: { kubeconfig: 'mine' } }, { fieldManager: 'test' });
  f.run(createClusterInfoPublisher(f.deps, { apiServerUrl, caBundle, bootstrapTokenAuth: true }));
  const expected: [string, string, string, string][] = [
    ['kubeadm:kubelet-bootstrap', 'system:node-bootstrapper', 'Group', 'system:bootstrappers:kubeadm:default-node-token'],
    ['kubeadm:node-autoapprove-bootstrap', 'system:certificates.k8s.io:certificatesigningrequests:nodeclient', 'Group', 'system:bootstrappers:kubeadm:default-node-token'],
    ['kubeadm:node-autoapprove-certificate-rotation', 'system:certificates.k8s.io:certificatesigningrequests:selfnodeclient', 'Group', 'system:nodes'],
  ];
  for (const [name, role, kind, subject] of expected) {
    await eventually(name, async () => (await f.find('clusterrolebindings', '', name, rbac)) !== undefined);
    const binding = (await f.find('clusterrolebindings', '', name, rbac))!;
    assert.deepEqual(binding.roleRef, { apiGroup: rbac, kind: 'ClusterRole', name: role });
    assert.deepEqual(binding.subjects, [{ apiGroup: rbac, kind, name: subject }]);
  }
  assert.deepEqual((await f.find('configmaps', 'kube-public', 'cluster-info'))?.data, { kubeconfig: 'mine' });
});

test('the controller list: bootstrapsigner and tokencleaner only when --controllers names them; cluster-info whenever given', () => {
  const deps = { registry: new ResourceRegistry('k8s.io'), stores: new Map(), log: () => undefined };
  const clusterInfo = { apiServerUrl, caBundle, bootstrapTokenAuth: true };
  const names = (selection?: string) => createControllers(deps, { clusterInfo, ...(selection === undefined ? {} : { selection: parseControllerSelection(selection) }) }).map((c) => c.name);
  const ours = (list: string[]) => list.filter((n) => ['bootstrapsigner', 'tokencleaner', 'cluster-info-publisher'].includes(n));
  assert.deepEqual(ours(names()), ['cluster-info-publisher']);
  assert.deepEqual(ours(names('*,bootstrapsigner,tokencleaner')), ['bootstrapsigner', 'tokencleaner', 'cluster-info-publisher']);
  assert.deepEqual(ours(names('tokencleaner')), ['tokencleaner', 'cluster-info-publisher']);
});
