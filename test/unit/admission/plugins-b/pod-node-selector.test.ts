import assert from 'node:assert/strict';
import { test } from 'node:test';
import { podNodeSelectorPlugin } from '../../../../internal/admission/plugins/pod-node-selector/pod-node-selector.ts';
import { attributes, namespace, pod, rejectsWith, testDeps } from './helpers.ts';

const namespaces = { group: '', resource: 'namespaces' };
const annotation = 'scheduler.alpha.kubernetes.io/node-selector';

function setup(configuration: unknown, ...objects: ReturnType<typeof namespace>[]) {
  const deps = testDeps();
  for (const o of objects) deps.reader.put(namespaces, o);
  return { deps, plugin: podNodeSelectorPlugin(deps, configuration) };
}

test('PodNodeSelector merges the namespace annotation into a new pod', async () => {
  const { plugin } = setup(undefined, namespace('default', { [annotation]: 'env=prod, tier = web' }));
  const a = attributes({ object: pod('p', { nodeSelector: { disk: 'ssd' } }) });
  await plugin.admit!(a);
  assert.deepEqual((a.object!['spec'] as { nodeSelector: unknown }).nodeSelector, { env: 'prod', tier: 'web', disk: 'ssd' });
  await plugin.validate!(a);
  assert.ok(plugin.handles('CREATE') && !plugin.handles('UPDATE'));
});

test('PodNodeSelector falls back to the cluster default and refuses a conflicting pod', async () => {
  const { plugin } = setup({ podNodeSelectorPluginConfig: { clusterDefaultNodeSelector: 'env=dev' } }, namespace('default'));
  const a = attributes({ object: pod('p') });
  await plugin.admit!(a);
  assert.deepEqual((a.object!['spec'] as { nodeSelector: unknown }).nodeSelector, { env: 'dev' });
  await rejectsWith(
    plugin.admit!(attributes({ object: pod('q', { nodeSelector: { env: 'prod' } }) })),
    403,
    'pods "q" is forbidden: pod node label selector conflicts with its namespace node label selector',
  );
});

test('PodNodeSelector refuses a selector outside the namespace whitelist; an empty annotation overrides the default', async () => {
  const config = { podNodeSelectorPluginConfig: { clusterDefaultNodeSelector: 'env=dev', default: 'env=dev,zone=a' } };
  const { plugin } = setup(config, namespace('default', { [annotation]: '' }));
  const a = attributes({ object: pod('p', { nodeSelector: { gpu: 'true' } }) });
  await rejectsWith(plugin.validate!(a), 403, 'pods "p" is forbidden: pod node label selector labels conflict with its namespace whitelist');
  const ok = attributes({ object: pod('p', { nodeSelector: { zone: 'a' } }) });
  await plugin.admit!(ok);
  assert.deepEqual((ok.object!['spec'] as { nodeSelector: unknown }).nodeSelector, { zone: 'a' });
});

test('PodNodeSelector reads a namespace the replica has not seen yet at the leader, and errs on a missing one', async () => {
  const deps = testDeps();
  deps.reader.put(namespaces, namespace('late', { [annotation]: 'a=b' }), { leaderOnly: true });
  const plugin = podNodeSelectorPlugin(deps, undefined);
  await plugin.admit!(attributes({ namespace: 'late', object: pod('p') }));
  assert.deepEqual(deps.reader.gets.map((g) => g.consistent), [false, true, false, true]);
  await rejectsWith(plugin.admit!(attributes({ namespace: 'gone', object: pod('p') })), 500, 'Internal error occurred: namespace gone does not exist');
});

test('PodNodeSelector refuses malformed configuration at start', () => {
  assert.throws(() => podNodeSelectorPlugin(testDeps(), { podNodeSelectorPluginConfig: { clusterDefaultNodeSelector: 'env' } }), /clusterDefaultNodeSelector: invalid selector: \[env\]/);
  assert.throws(() => podNodeSelectorPlugin(testDeps(), { podNodeSelectorPluginConfig: { ns: 7 } }), /podNodeSelectorPluginConfig\.ns must be a string/);
  assert.throws(() => podNodeSelectorPlugin(testDeps(), { podNodeSelectorPluginConfig: { ns: 'Bad Key=x' } }), /invalid label key "Bad Key"/);
  assert.throws(() => podNodeSelectorPlugin(testDeps(), ['x']), /must be a mapping/);
});
