import assert from 'node:assert/strict';
import { test } from 'node:test';
import { podTolerationRestrictionPlugin } from '../../../../internal/admission/plugins/pod-toleration-restriction/pod-toleration-restriction.ts';
import { isSuperset, mergeTolerations, verifyAgainstWhitelist } from '../../../../internal/admission/plugins/pod-toleration-restriction/tolerations.ts';
import { attributes, namespace, pod, rejectsWith, testDeps } from './helpers.ts';

const namespaces = { group: '', resource: 'namespaces' };
const defaults = 'scheduler.alpha.kubernetes.io/defaultTolerations';
const whitelist = 'scheduler.alpha.kubernetes.io/tolerationsWhitelist';
const apiVersion = 'podtolerationrestriction.admission.k8s.io/v1alpha1';
const memoryPressure = { key: 'node.kubernetes.io/memory-pressure', operator: 'Exists', effect: 'NoSchedule' };

function setup(configuration: unknown, annotations: Record<string, string>) {
  const deps = testDeps();
  deps.reader.put(namespaces, namespace('default', annotations));
  return podTolerationRestrictionPlugin(deps, configuration);
}

function tolerationsOf(a: ReturnType<typeof attributes>): unknown {
  return (a.object!['spec'] as { tolerations?: unknown }).tolerations;
}

test('toleration arithmetic follows kube: supersets, merge without redundancy, whitelist cover', () => {
  const all = { operator: 'Exists' };
  const foo = { key: 'foo', operator: 'Equal', value: 'bar', effect: 'NoSchedule' };
  assert.ok(isSuperset(all, foo));
  assert.ok(!isSuperset(foo, all));
  assert.ok(!isSuperset({ key: 'foo', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 10 }, { key: 'foo', operator: 'Exists', effect: 'NoExecute' }));
  assert.deepEqual(mergeTolerations([foo], [all, foo]), [all]);
  assert.ok(verifyAgainstWhitelist([foo], [{ key: 'foo', operator: 'Exists' }]));
  assert.ok(!verifyAgainstWhitelist([foo], [{ key: 'other', operator: 'Exists' }]));
});

test('PodTolerationRestriction merges namespace default tolerations into a new BestEffort pod', async () => {
  const ns = [{ key: 'team', operator: 'Equal', value: 'a', effect: 'NoSchedule' }];
  const plugin = setup(undefined, { [defaults]: JSON.stringify(ns) });
  const a = attributes({ object: pod('p', { tolerations: [{ key: 'x', operator: 'Exists' }] }) });
  await plugin.admit!(a);
  assert.deepEqual(tolerationsOf(a), [{ key: 'x', operator: 'Exists' }, ...ns]);
});

test('PodTolerationRestriction adds the memory-pressure toleration to a pod that is not BestEffort, also on update', async () => {
  const plugin = setup(undefined, {});
  const spec = { containers: [{ name: 'c', image: 'x', resources: { requests: { cpu: '100m' } } }] };
  const a = attributes({ operation: 'UPDATE', name: 'p', object: pod('p', spec), oldObject: pod('p', spec) });
  await plugin.admit!(a);
  assert.deepEqual(tolerationsOf(a), [memoryPressure]);
  const zero = attributes({ object: pod('q', { containers: [{ name: 'c', image: 'x', resources: { requests: { cpu: '0' } } }] }) });
  await plugin.admit!(zero);
  assert.equal(tolerationsOf(zero), undefined);
});

test('PodTolerationRestriction uses the cluster default when the namespace has no annotation', async () => {
  const configuration = { apiVersion, kind: 'Configuration', default: [{ key: 'cluster', operator: 'Exists', effect: 'NoSchedule' }] };
  const plugin = setup(configuration, {});
  const a = attributes({ object: pod('p') });
  await plugin.admit!(a);
  assert.deepEqual(tolerationsOf(a), [{ key: 'cluster', operator: 'Exists', effect: 'NoSchedule' }]);
  const empty = setup(configuration, { [defaults]: '' });
  const b = attributes({ object: pod('p') });
  await empty.admit!(b);
  assert.equal(tolerationsOf(b), undefined);
});

test('PodTolerationRestriction refuses tolerations outside the namespace or cluster whitelist', async () => {
  const nsPlugin = setup(undefined, { [whitelist]: '[{"key":"ok","operator":"Exists"}]' });
  await nsPlugin.validate!(attributes({ object: pod('p', { tolerations: [{ key: 'ok', operator: 'Equal', value: 'v' }] }) }));
  await rejectsWith(
    nsPlugin.validate!(attributes({ object: pod('p', { tolerations: [{ key: 'bad', operator: 'Exists' }] }) })),
    500,
    'pod tolerations (possibly merged with namespace default tolerations) conflict with its namespace whitelist',
  );
  const clusterPlugin = setup({ apiVersion, kind: 'Configuration', whitelist: [{ key: 'ok', operator: 'Exists' }] }, {});
  await rejectsWith(
    clusterPlugin.admit!(attributes({ object: pod('p', { tolerations: [{ key: 'bad', operator: 'Exists' }] }) })),
    500,
    'pod tolerations (possibly merged with namespace default tolerations) conflict with its cluster whitelist',
  );
});

test('PodTolerationRestriction reports a bad annotation and a missing namespace', async () => {
  const plugin = setup(undefined, { [defaults]: 'not json' });
  const error = await rejectsWith(plugin.admit!(attributes({ object: pod('p') })), 500, (() => { try { JSON.parse('not json'); } catch (e) { return (e as Error).message; } return ''; })());
  assert.equal(error.reason, '');
  await rejectsWith(plugin.admit!(attributes({ namespace: 'gone', object: pod('p') })), 404, 'namespaces "gone" not found');
});

test('PodTolerationRestriction refuses malformed configuration at start', () => {
  assert.throws(() => podTolerationRestrictionPlugin(testDeps(), { apiVersion: 'v1', kind: 'Configuration' }), /expected kind "Configuration" of apiVersion "podtolerationrestriction.admission.k8s.io\/v1alpha1"/);
  assert.throws(
    () => podTolerationRestrictionPlugin(testDeps(), { apiVersion, kind: 'Configuration', whitelist: [{ key: '', operator: 'Equal' }] }),
    /^Error: invalid config: \[podtolerationrestriction\.whitelist\[0\]\.operator: Invalid value: "Equal": operator must be Exists when `key` is empty/,
  );
  assert.throws(() => podTolerationRestrictionPlugin(testDeps(), { apiVersion, kind: 'Configuration', default: 'x' }), /default must be a list of tolerations/);
});
