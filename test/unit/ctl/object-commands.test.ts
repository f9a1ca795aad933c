// get, apply and delete against a stub replica with a small discovery: the requests they make
// (paths, Accept, content type, field manager) and what they print.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runOrchctl } from '../../../internal/ctl/dispatcher.ts';
import { recordingIo, sendJson, sendStatus, startStubCluster, type Received, type StubCluster } from './stub-replicas.ts';
import type { ServerResponse } from 'node:http';

const core = { kind: 'APIResourceList', groupVersion: 'v1', resources: [
  { name: 'configmaps', singularName: 'configmap', shortNames: ['cm'], kind: 'ConfigMap', namespaced: true, verbs: ['get', 'list', 'patch', 'delete'] },
  { name: 'configmaps/status', singularName: '', kind: 'ConfigMap', namespaced: true },
  { name: 'namespaces', singularName: 'namespace', shortNames: ['ns'], kind: 'Namespace', namespaced: false, verbs: ['get'] },
] };
const groups = { kind: 'APIGroupList', groups: [{ name: 'apps', versions: [{ groupVersion: 'apps/v1', version: 'v1' }], preferredVersion: { groupVersion: 'apps/v1', version: 'v1' } }] };
const apps = { kind: 'APIResourceList', groupVersion: 'apps/v1', resources: [{ name: 'deployments', singularName: 'deployment', shortNames: ['deploy'], kind: 'Deployment', namespaced: true }] };

function handler(req: Received, res: ServerResponse): void {
  const path = req.url.split('?')[0];
  if (path === '/api/v1') return sendJson(res, 200, core);
  if (path === '/apis') return sendJson(res, 200, groups);
  if (path === '/apis/apps/v1') return sendJson(res, 200, apps);
  if (req.method === 'GET' && path === '/api/v1/namespaces/team/configmaps') {
    if (String(req.headers.accept).includes('as=Table')) {
      return sendJson(res, 200, { kind: 'Table', apiVersion: 'meta.k8s.io/v1', columnDefinitions: [{ name: 'Name', priority: 0 }, { name: 'Data', priority: 0 }], rows: [{ cells: ['a', 2], object: { metadata: { name: 'a', namespace: 'team' } } }] });
    }
    return sendJson(res, 200, { kind: 'ConfigMapList', apiVersion: 'v1', items: [{ metadata: { name: 'a', namespace: 'team' }, data: { x: '1' } }] });
  }
  if (req.method === 'PATCH' && path === '/apis/apps/v1/namespaces/team/deployments/web') return sendJson(res, 200, JSON.parse(req.body));
  if (req.method === 'PATCH' && path === '/api/v1/namespaces/team/configmaps/owned') return sendStatus(res, 409, 'Conflict', 'Apply failed with 1 conflict: conflict with "other": .data.x');
  if (req.method === 'DELETE' && path === '/api/v1/namespaces/team/configmaps/a') return sendJson(res, 200, { kind: 'Status', status: 'Success' });
  if (req.method === 'DELETE') return sendStatus(res, 404, 'NotFound', 'configmaps "b" not found');
  return sendStatus(res, 404, 'NotFound', `${req.method} ${req.url}`);
}

async function withStub(body: (cluster: StubCluster) => Promise<void>): Promise<void> {
  const cluster = await startStubCluster(1);
  const replica = cluster.replicas[0];
  if (replica !== undefined) replica.handler = handler;
  try {
    await body(cluster);
  } finally {
    await cluster.close();
  }
}

test('get asks for the server\'s Table and prints its columns; -o json and -o name print the objects', () =>
  withStub(async (cluster) => {
    const table = recordingIo(cluster.dir);
    assert.equal(await runOrchctl(['get', 'cm', '-n', 'team', '--kubeconfig', cluster.kubeconfigPath], table), 0, table.err);
    assert.equal(table.out, 'NAME   DATA\na      2\n');
    const listed = cluster.replicas[0]?.received.find((r) => r.url.startsWith('/api/v1/namespaces/team/configmaps'));
    assert.equal(listed?.headers.accept, 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json');
    const json = recordingIo(cluster.dir);
    assert.equal(await runOrchctl(['get', 'configmaps', '-n', 'team', '-o', 'json', '--kubeconfig', cluster.kubeconfigPath], json), 0, json.err);
    const list = JSON.parse(json.out) as { kind: string; items: { apiVersion: string; kind: string }[] };
    assert.equal(list.kind, 'List');
    assert.deepEqual([list.items[0]?.apiVersion, list.items[0]?.kind], ['v1', 'ConfigMap']);
    const names = recordingIo(cluster.dir);
    assert.equal(await runOrchctl(['get', 'ConfigMap', '-n', 'team', '-o', 'name', '-l', 'app=web', '--kubeconfig', cluster.kubeconfigPath], names), 0, names.err);
    assert.equal(names.out, 'configmap/a\n');
    assert.ok(cluster.replicas[0]?.received.some((r) => r.url.includes('labelSelector=app%3Dweb')));
  }));

test('apply sends each document as an apply patch with fieldManager=orchctl, in the -n namespace when it names none', () =>
  withStub(async (cluster) => {
    const file = join(cluster.dir, 'app.yaml');
    writeFileSync(file, 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 2\n');
    const io = recordingIo(cluster.dir);
    assert.equal(await runOrchctl(['apply', '-f', 'app.yaml', '-n', 'team', '--force-conflicts', '--kubeconfig', cluster.kubeconfigPath], io), 0, io.err);
    assert.equal(io.out, 'deployment.apps/web serverside-applied\n');
    const patch = cluster.replicas[0]?.received.find((r) => r.method === 'PATCH');
    assert.equal(patch?.headers['content-type'], 'application/apply-patch+yaml');
    assert.match(patch?.url ?? '', /\?fieldManager=orchctl&force=true$/);
    assert.deepEqual(JSON.parse(patch?.body ?? '{}'), { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: 'team' }, spec: { replicas: 2 } });
  }));

test('an apply conflict is one line that points at --force-conflicts; a manifest without a name is refused before any request', () =>
  withStub(async (cluster) => {
    writeFileSync(join(cluster.dir, 'owned.yaml'), 'apiVersion: v1\nkind: ConfigMap\nmetadata: { name: owned, namespace: team }\ndata: { x: "2" }\n');
    const io = recordingIo(cluster.dir);
    assert.equal(await runOrchctl(['apply', '-f', 'owned.yaml', '--kubeconfig', cluster.kubeconfigPath], io), 1);
    assert.match(io.err, /^error: configmap\/owned \([^)]*owned\.yaml\): Apply failed with 1 conflict[^\n]*; apply with --force-conflicts to take over those fields\n$/);
    writeFileSync(join(cluster.dir, 'bad.yaml'), 'apiVersion: v1\nkind: ConfigMap\nmetadata: {}\n');
    const bad = recordingIo(cluster.dir);
    const before = cluster.replicas[0]?.received.length;
    assert.equal(await runOrchctl(['apply', '-f', 'bad.yaml', '--kubeconfig', cluster.kubeconfigPath], bad), 1);
    assert.match(bad.err, /^error: [^\n]*bad\.yaml: a ConfigMap has no metadata\.name; add one\n$/);
    assert.equal(cluster.replicas[0]?.received.length, before);
  }));

test('delete deletes each named object and stops with one line at the first that is not there', () =>
  withStub(async (cluster) => {
    const io = recordingIo(cluster.dir);
    assert.equal(await runOrchctl(['delete', 'cm', 'a', 'b', '-n', 'team', '--kubeconfig', cluster.kubeconfigPath], io), 1);
    assert.equal(io.out, 'configmap/a deleted\n');
    assert.match(io.err, /^error: configmaps "b" not found \(404 NotFound from [^)]+\); check the name \(and the namespace, -n\)\n$/);
  }));
