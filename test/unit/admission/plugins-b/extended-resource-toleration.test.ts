import assert from 'node:assert/strict';
import { test } from 'node:test';
import { extendedResourceTolerationPlugin } from '../../../../internal/admission/plugins/extended-resource-toleration/extended-resource-toleration.ts';
import { isExtendedResourceName } from '../../../../internal/admission/plugins/extended-resource-toleration/extended-resource-name.ts';
import { attributes, pod } from './helpers.ts';
import { testDeps } from './helpers.ts';

const plugin = extendedResourceTolerationPlugin(testDeps(), undefined);

test('extended resource names are domain-prefixed names outside kubernetes.io', () => {
  assert.ok(isExtendedResourceName('example.com/gpu'));
  assert.ok(!isExtendedResourceName('cpu'));
  assert.ok(!isExtendedResourceName('kubernetes.io/something'));
  assert.ok(!isExtendedResourceName('requests.example.com/gpu'));
  assert.ok(!isExtendedResourceName('example.com/bad name'));
});

test('ExtendedResourceToleration adds sorted Exists NoSchedule tolerations for requested extended resources', async () => {
  const p = pod('p', {
    containers: [{ name: 'c', image: 'x', resources: { requests: { cpu: '1', 'example.com/gpu': '1' } } }],
    initContainers: [{ name: 'i', image: 'x', resources: { requests: { 'acme.io/fpga': '2' } } }],
    tolerations: [{ key: 'other', operator: 'Equal', value: 'v', effect: 'NoExecute' }],
  });
  const a = attributes({ object: p });
  await plugin.admit!(a);
  assert.deepEqual((a.object!['spec'] as { tolerations: unknown[] }).tolerations, [
    { key: 'other', operator: 'Equal', value: 'v', effect: 'NoExecute' },
    { key: 'acme.io/fpga', operator: 'Exists', effect: 'NoSchedule' },
    { key: 'example.com/gpu', operator: 'Exists', effect: 'NoSchedule' },
  ]);
});

test('ExtendedResourceToleration does not duplicate an existing toleration and ignores plain resources', async () => {
  const existing = { key: 'example.com/gpu', operator: 'Exists', effect: 'NoSchedule' };
  const a = attributes({ object: pod('p', { containers: [{ name: 'c', image: 'x', resources: { requests: { 'example.com/gpu': '1' } } }], tolerations: [existing] }) });
  await plugin.admit!(a);
  assert.deepEqual((a.object!['spec'] as { tolerations: unknown[] }).tolerations, [existing]);
  const plain = attributes({ object: pod('q', { containers: [{ name: 'c', image: 'x', resources: { requests: { cpu: '1', memory: '1Gi' } } }] }) });
  await plugin.admit!(plain);
  assert.equal((plain.object!['spec'] as { tolerations?: unknown }).tolerations, undefined);
});
