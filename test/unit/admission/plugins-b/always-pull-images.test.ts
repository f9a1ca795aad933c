import assert from 'node:assert/strict';
import { test } from 'node:test';
import { alwaysPullImagesPlugin } from '../../../../internal/admission/plugins/always-pull-images/always-pull-images.ts';
import { attributes, pod, rejectsWith, testDeps } from './helpers.ts';

const plugin = alwaysPullImagesPlugin(testDeps(), undefined);

function threeContainerPod() {
  return pod('p', {
    initContainers: [{ name: 'i', image: 'init', imagePullPolicy: 'IfNotPresent' }],
    containers: [{ name: 'c', image: 'app', imagePullPolicy: 'Never' }],
    ephemeralContainers: [{ name: 'e', image: 'debug' }],
  });
}

test('AlwaysPullImages sets Always on init, regular and ephemeral containers of a new pod', async () => {
  const a = attributes({ object: threeContainerPod() });
  await plugin.admit!(a);
  const spec = a.object!['spec'] as Record<string, { imagePullPolicy: string }[]>;
  for (const list of ['initContainers', 'containers', 'ephemeralContainers']) assert.equal(spec[list]![0]!.imagePullPolicy, 'Always');
  await plugin.validate!(a);
});

test('AlwaysPullImages refuses a pod left with another policy, one refusal per container', async () => {
  await rejectsWith(
    plugin.validate!(attributes({ object: pod('p', { containers: [{ name: 'c', image: 'x', imagePullPolicy: 'IfNotPresent' }] }) })),
    403,
    'pods "p" is forbidden: spec.containers[0].imagePullPolicy: Unsupported value: "IfNotPresent": supported values: "Always"',
  );
  await rejectsWith(
    plugin.validate!(attributes({ object: threeContainerPod() })),
    403,
    '[pods "p" is forbidden: spec.initContainers[0].imagePullPolicy: Unsupported value: "IfNotPresent": supported values: "Always", ' +
      'pods "p" is forbidden: spec.containers[0].imagePullPolicy: Unsupported value: "Never": supported values: "Always", ' +
      'pods "p" is forbidden: spec.ephemeralContainers[0].imagePullPolicy: Unsupported value: "": supported values: "Always"]',
  );
});

test('AlwaysPullImages leaves an update that brings no new image alone', async () => {
  const old = pod('p', { containers: [{ name: 'c', image: 'app', imagePullPolicy: 'IfNotPresent' }] });
  const next = pod('p', { containers: [{ name: 'c', image: 'app', imagePullPolicy: 'IfNotPresent' }] }, { labels: { a: 'b' } });
  const a = attributes({ operation: 'UPDATE', name: 'p', object: next, oldObject: old });
  await plugin.admit!(a);
  assert.equal((a.object!['spec'] as { containers: { imagePullPolicy: string }[] }).containers[0]!.imagePullPolicy, 'IfNotPresent');
  await plugin.validate!(a);
});

test('AlwaysPullImages handles an update that changes an image', async () => {
  const old = pod('p', { containers: [{ name: 'c', image: 'app:1', imagePullPolicy: 'IfNotPresent' }] });
  const next = pod('p', { containers: [{ name: 'c', image: 'app:2', imagePullPolicy: 'IfNotPresent' }] });
  const a = attributes({ operation: 'UPDATE', name: 'p', object: next, oldObject: old });
  await rejectsWith(plugin.validate!(a), 403, 'pods "p" is forbidden: spec.containers[0].imagePullPolicy: Unsupported value: "IfNotPresent": supported values: "Always"');
  await plugin.admit!(a);
  await plugin.validate!(a);
});

test('AlwaysPullImages ignores sub-resources and other resources', async () => {
  const bad = pod('p', { containers: [{ name: 'c', image: 'x', imagePullPolicy: 'Never' }] });
  await plugin.validate!(attributes({ object: bad, subresource: 'status' }));
  await plugin.validate!(attributes({ object: bad, resource: { group: 'apps', resource: 'deployments' } }));
  assert.ok(!plugin.handles('DELETE'));
});
