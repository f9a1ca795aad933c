// The declarations carry Kubernetes' merge markers as the official v1.28 OpenAPI document gives
// them, and the patch-layer schema derived from them drives strategic merge patch and server-side
// apply as Kubernetes' built-in types do: a list with only a patch merge key is a map keyed by it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyStrategicMergePatch, apply, type Schema } from '../../../../internal/patch/index.ts';
import { listTypeOf, type ListType } from '../../../../internal/patch/schema.ts';
import { deployments } from '../../../../internal/registry/apps/deployments.ts';
import { pods } from '../../../../internal/registry/core/pods.ts';
import { services } from '../../../../internal/registry/core/services.ts';
import { nodes } from '../../../../internal/registry/core/nodes.ts';
import { objectPatchSchema } from '../../../../internal/registry/schema/patch-schema.ts';

function at(schema: Schema | undefined, path: string): Schema | undefined {
  let s = schema;
  for (const step of path.split('.')) s = step === '[]' ? s?.items : s?.properties?.[step];
  return s;
}

const markers = (s: Schema | undefined): { strategy?: string; mergeKey?: string; list?: ListType; mapType?: string } => ({
  strategy: s?.['x-kubernetes-patch-strategy'],
  mergeKey: s?.['x-kubernetes-patch-merge-key'],
  list: s?.type === 'array' ? listTypeOf(s) : undefined,
  mapType: s?.['x-kubernetes-map-type'],
});
const byKeys = (...keys: string[]): ListType => ({ kind: 'map', keys });
const atomic: ListType = { kind: 'atomic' };

const podSpec = 'spec';
const templateSpec = 'spec.template.spec';
const cases: [string, Schema, string, ReturnType<typeof markers>][] = [
  ['containers by name', objectPatchSchema(pods), `${podSpec}.containers`, { strategy: 'merge', mergeKey: 'name', list: byKeys('name'), mapType: undefined }],
  ['initContainers by name', objectPatchSchema(pods), `${podSpec}.initContainers`, { strategy: 'merge', mergeKey: 'name', list: byKeys('name'), mapType: undefined }],
  ['container ports by containerPort and protocol', objectPatchSchema(deployments), `${templateSpec}.containers.[].ports`, { strategy: 'merge', mergeKey: 'containerPort', list: byKeys('containerPort', 'protocol'), mapType: undefined }],
  ['env by name', objectPatchSchema(deployments), `${templateSpec}.containers.[].env`, { strategy: 'merge', mergeKey: 'name', list: byKeys('name'), mapType: undefined }],
  ['volumeMounts by mountPath', objectPatchSchema(pods), `${podSpec}.containers.[].volumeMounts`, { strategy: 'merge', mergeKey: 'mountPath', list: byKeys('mountPath'), mapType: undefined }],
  ['volumes by name', objectPatchSchema(pods), `${podSpec}.volumes`, { strategy: 'merge,retainKeys', mergeKey: 'name', list: byKeys('name'), mapType: undefined }],
  ['tolerations atomic', objectPatchSchema(pods), `${podSpec}.tolerations`, { strategy: undefined, mergeKey: undefined, list: atomic, mapType: undefined }],
  ['container command atomic', objectPatchSchema(pods), `${podSpec}.containers.[].command`, { strategy: undefined, mergeKey: undefined, list: atomic, mapType: undefined }],
  ['finalizers a set', objectPatchSchema(pods), 'metadata.finalizers', { strategy: 'merge', mergeKey: undefined, list: { kind: 'set' }, mapType: undefined }],
  ['ownerReferences by uid', objectPatchSchema(pods), 'metadata.ownerReferences', { strategy: 'merge', mergeKey: 'uid', list: byKeys('uid'), mapType: undefined }],
  ['pod conditions by type', objectPatchSchema(pods), 'status.conditions', { strategy: 'merge', mergeKey: 'type', list: byKeys('type'), mapType: undefined }],
  ['deployment conditions by type', objectPatchSchema(deployments), 'status.conditions', { strategy: 'merge', mergeKey: 'type', list: byKeys('type'), mapType: undefined }],
  ['node conditions by type', objectPatchSchema(nodes), 'status.conditions', { strategy: 'merge', mergeKey: 'type', list: byKeys('type'), mapType: undefined }],
  ['service ports by port and protocol', objectPatchSchema(services), 'spec.ports', { strategy: 'merge', mergeKey: 'port', list: byKeys('port', 'protocol'), mapType: undefined }],
  ['label selector atomic', objectPatchSchema(deployments), 'spec.selector', { strategy: undefined, mergeKey: undefined, list: undefined, mapType: 'atomic' }],
];

for (const [what, schema, path, expected] of cases) {
  test(`declared marker: ${what}`, () => {
    assert.deepEqual(markers(at(schema, path)), expected);
  });
}

test('a port without protocol is keyed by the TCP default, so apply and live items match', () => {
  const schema = objectPatchSchema(deployments);
  const live = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd' }, spec: { template: { spec: { containers: [{ name: 'c', ports: [{ containerPort: 80, protocol: 'TCP' }] }] } } } };
  const applied = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd' }, spec: { template: { spec: { containers: [{ name: 'c', ports: [{ containerPort: 80, name: 'http' }] }] } } } };
  const out = apply({ live, applied, manager: 'm', apiVersion: 'apps/v1', force: false, schema, now: '2026-01-01T00:00:00Z' });
  const ports = (out.object.spec as { template: { spec: { containers: { ports: unknown[] }[] } } }).template.spec.containers[0]?.ports;
  assert.deepEqual(ports, [{ containerPort: 80, protocol: 'TCP', name: 'http' }]);
});

test('strategic merge patch with the declared schema: $setElementOrder, $retainKeys and $patch replace', () => {
  const schema = objectPatchSchema(deployments);
  const live = { spec: { strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1 } }, template: { spec: { containers: [{ name: 'a', image: '1' }, { name: 'b', image: '1' }] } } } };
  const ordered = applyStrategicMergePatch(live, { spec: { template: { spec: { '$setElementOrder/containers': [{ name: 'b' }, { name: 'a' }], containers: [{ name: 'a', image: '2' }] } } } }, schema);
  assert.deepEqual(ordered, { spec: { strategy: live.spec.strategy, template: { spec: { containers: [{ name: 'b', image: '1' }, { name: 'a', image: '2' }] } } } });
  const replaced = applyStrategicMergePatch(live, { spec: { template: { spec: { containers: [{ name: 'z', image: '9' }, { $patch: 'replace' }] } } } }, schema);
  assert.deepEqual((replaced as typeof live).spec.template.spec.containers, [{ name: 'z', image: '9' }]);
  const retained = applyStrategicMergePatch(live, { spec: { strategy: { $retainKeys: ['type'], type: 'Recreate' } } }, schema);
  assert.deepEqual((retained as typeof live).spec.strategy, { type: 'Recreate' });
});
