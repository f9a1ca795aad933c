import { test } from 'node:test';
import { securityContextDenyPlugin } from '../../../../internal/admission/plugins/security-context-deny/security-context-deny.ts';
import { attributes, pod, rejectsWith, testDeps } from './helpers.ts';

const plugin = securityContextDenyPlugin(testDeps(), undefined);

test('SecurityContextDeny allows a pod without the listed fields', async () => {
  await plugin.validate!(attributes({ object: pod('p', { securityContext: { runAsNonRoot: true }, containers: [{ name: 'c', image: 'x', securityContext: { privileged: false } }] }) }));
});

test('SecurityContextDeny refuses pod-level fields in kube order', async () => {
  await rejectsWith(plugin.validate!(attributes({ object: pod('p', { securityContext: { fsGroup: 1, supplementalGroups: [1] } }) })), 403, 'pods "p" is forbidden: pod.Spec.SecurityContext.SupplementalGroups is forbidden');
  await rejectsWith(plugin.validate!(attributes({ object: pod('p', { securityContext: { seLinuxOptions: {} } }) })), 403, 'pods "p" is forbidden: pod.Spec.SecurityContext.SELinuxOptions is forbidden');
  await rejectsWith(plugin.validate!(attributes({ object: pod('p', { securityContext: { runAsUser: 0 } }) })), 403, 'pods "p" is forbidden: pod.Spec.SecurityContext.RunAsUser is forbidden');
  await rejectsWith(plugin.validate!(attributes({ object: pod('p', { securityContext: { fsGroup: 2 } }) })), 403, 'pods "p" is forbidden: pod.Spec.SecurityContext.FSGroup is forbidden');
});

test('SecurityContextDeny refuses container-level runAsUser and seLinuxOptions', async () => {
  await rejectsWith(
    plugin.validate!(attributes({ object: pod('p', { initContainers: [{ name: 'i', image: 'x', securityContext: { seLinuxOptions: { level: 's0' } } }] }) })),
    403,
    'pods "p" is forbidden: SecurityContext.SELinuxOptions is forbidden',
  );
  await rejectsWith(plugin.validate!(attributes({ object: pod('p', { containers: [{ name: 'c', image: 'x', securityContext: { runAsUser: 1000 } }] }) })), 403, 'pods "p" is forbidden: SecurityContext.RunAsUser is forbidden');
});
