import assert from 'node:assert/strict';
import { test } from 'node:test';
import { alwaysAdmitPlugin } from '../../../../internal/admission/plugins/always-admit/always-admit.ts';
import { alwaysDenyPlugin } from '../../../../internal/admission/plugins/always-deny/always-deny.ts';
import { attributes, pod, rejectsWith, testDeps } from './helpers.ts';

test('AlwaysAdmit handles every operation and lets every request through', async () => {
  const plugin = alwaysAdmitPlugin(testDeps(), undefined);
  assert.equal(plugin.name, 'AlwaysAdmit');
  for (const op of ['CREATE', 'UPDATE', 'DELETE', 'CONNECT'] as const) assert.ok(plugin.handles(op));
  await plugin.admit!(attributes({ object: pod('p') }));
  await plugin.validate!(attributes({ object: pod('p') }));
});

test('AlwaysDeny refuses in both phases with kube wording', async () => {
  const plugin = alwaysDenyPlugin(testDeps(), undefined);
  assert.equal(plugin.name, 'AlwaysDeny');
  assert.ok(plugin.handles('DELETE'));
  await rejectsWith(plugin.admit!(attributes({ object: pod('web') })), 403, 'pods "web" is forbidden: admission control is denying all modifications');
  await rejectsWith(
    plugin.validate!(attributes({ operation: 'DELETE', resource: { group: 'apps', resource: 'deployments' }, name: 'd' })),
    403,
    'deployments.apps "d" is forbidden: admission control is denying all modifications',
  );
});
