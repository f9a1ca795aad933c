// The plugin on pods: enforce refuses with kube's exact message, warn and audit only report, and
// exemptions, updates and sub-resources behave as pod-security-admission's ValidatePod.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { StatusError } from '../../../../internal/registry/errors/status-error.ts';
import { MemoryObjects, attributes, namespace, oneContainer, plugin, pod, restrictedContainerContext, validate } from './harness.ts';

const privilegedPod = pod('x', oneContainer('x', { privileged: true }));

function objectsWith(labels: Record<string, string>): MemoryObjects {
  const objects = new MemoryObjects();
  objects.namespaces.set('ns', namespace('ns', labels));
  return objects;
}

test('a privileged pod in a restricted namespace is refused with every reason, in kube order', async () => {
  const attrs = attributes({ object: privilegedPod });
  const err = await validate(plugin(objectsWith({ 'pod-security.kubernetes.io/enforce': 'restricted' })), attrs);
  assert.ok(err instanceof StatusError);
  assert.equal(err.code, 403);
  assert.equal(err.reason, 'Forbidden');
  assert.equal(
    err.message,
    'pods "x" is forbidden: violates PodSecurity "restricted:latest": privileged (container "x" must not set securityContext.privileged=true), ' +
      'allowPrivilegeEscalation != false (container "x" must set securityContext.allowPrivilegeEscalation=false), ' +
      'unrestricted capabilities (container "x" must set securityContext.capabilities.drop=["ALL"]), ' +
      'runAsNonRoot != true (pod or container "x" must set securityContext.runAsNonRoot=true), ' +
      'seccompProfile (pod or container "x" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")',
  );
  assert.equal(attrs.annotations.get('pod-security.kubernetes.io/enforce-policy'), 'restricted:latest');
  assert.deepEqual(attrs.warnings, [], 'a refused request gets no warnings');
});

test('a privileged pod in a baseline namespace is refused for privileged only', async () => {
  const err = await validate(plugin(objectsWith({ 'pod-security.kubernetes.io/enforce': 'baseline', 'pod-security.kubernetes.io/enforce-version': 'v1.28' })), attributes({ object: privilegedPod }));
  assert.ok(err instanceof StatusError);
  assert.equal(err.message, 'pods "x" is forbidden: violates PodSecurity "baseline:v1.28": privileged (container "x" must not set securityContext.privileged=true)');
});

test('a compliant pod in a restricted namespace is allowed and the enforced policy audited', async () => {
  const attrs = attributes({ object: pod('ok', oneContainer('ok', restrictedContainerContext)) });
  assert.equal(await validate(plugin(objectsWith({ 'pod-security.kubernetes.io/enforce': 'restricted' })), attrs), undefined);
  assert.equal(attrs.annotations.get('pod-security.kubernetes.io/enforce-policy'), 'restricted:latest');
  assert.equal(attrs.annotations.has('pod-security.kubernetes.io/audit-violations'), false);
});

test('warn adds kube\'s warning and audit adds the audit-violations annotation, neither refuses', async () => {
  const objects = objectsWith({ 'pod-security.kubernetes.io/warn': 'restricted', 'pod-security.kubernetes.io/audit': 'baseline', 'pod-security.kubernetes.io/audit-version': 'v1.25' });
  const attrs = attributes({ object: pod('w', oneContainer('w', { ...restrictedContainerContext, runAsNonRoot: false })) });
  assert.equal(await validate(plugin(objects), attrs), undefined);
  assert.deepEqual(attrs.warnings, ['would violate PodSecurity "restricted:latest": runAsNonRoot != true (container "w" must not set securityContext.runAsNonRoot=false)']);
  assert.equal(attrs.annotations.has('pod-security.kubernetes.io/audit-violations'), false, 'baseline allows it');
  assert.equal(attrs.annotations.get('pod-security.kubernetes.io/enforce-policy'), 'privileged:latest');

  const bad = attributes({ object: privilegedPod });
  await validate(plugin(objects), bad);
  assert.equal(bad.annotations.get('pod-security.kubernetes.io/audit-violations'), 'would violate PodSecurity "baseline:v1.25": privileged (container "x" must not set securityContext.privileged=true)');
  assert.equal(bad.warnings.length, 1);
});

test('a namespace without labels gets the configured defaults, and kube\'s privileged default otherwise', async () => {
  const objects = objectsWith({});
  assert.equal(await validate(plugin(objects), attributes({ object: privilegedPod })), undefined);
  const configured = plugin(objects, { apiVersion: 'pod-security.admission.config.k8s.io/v1', kind: 'PodSecurityConfiguration', defaults: { enforce: 'baseline' } });
  const err = await validate(configured, attributes({ object: privilegedPod }));
  assert.ok(err instanceof StatusError);
  assert.match(err.message, /violates PodSecurity "baseline:latest": privileged/);
});

test('a fully privileged namespace allows without evaluating, noting the enforced policy', async () => {
  const attrs = attributes({ object: privilegedPod });
  assert.equal(await validate(plugin(objectsWith({ 'pod-security.kubernetes.io/enforce': 'privileged' })), attrs), undefined);
  assert.deepEqual([...attrs.annotations], [['pod-security.kubernetes.io/enforce-policy', 'privileged:latest']]);
});

test('a bad enforce label fails closed to restricted and the audit event names the parse error', async () => {
  const attrs = attributes({ object: pod('ok', oneContainer('ok', { ...restrictedContainerContext, privileged: true })) });
  const err = await validate(plugin(objectsWith({ 'pod-security.kubernetes.io/enforce': 'strict', 'pod-security.kubernetes.io/warn': 'nope' })), attrs);
  assert.ok(err instanceof StatusError);
  assert.match(err.message, /violates PodSecurity "restricted:latest": privileged/);
  assert.equal(
    attrs.annotations.get('pod-security.kubernetes.io/error'),
    'Failed to parse policy: [metadata.labels[pod-security.kubernetes.io/enforce]: Invalid value: "strict": must be one of privileged, baseline, restricted, ' +
      'metadata.labels[pod-security.kubernetes.io/warn]: Invalid value: "nope": must be one of privileged, baseline, restricted]',
  );
});

test('exempt users, namespaces and runtime classes are allowed and the audit event says why', async () => {
  const configuration = {
    apiVersion: 'pod-security.admission.config.k8s.io/v1beta1',
    kind: 'PodSecurityConfiguration',
    exemptions: { usernames: ['admin'], namespaces: ['kube-system'], runtimeClasses: ['kata'] },
  };
  const objects = objectsWith({ 'pod-security.kubernetes.io/enforce': 'restricted' });
  objects.namespaces.set('kube-system', namespace('kube-system', { 'pod-security.kubernetes.io/enforce': 'restricted' }));
  const p = plugin(objects, configuration);

  const byUser = attributes({ object: privilegedPod, username: 'admin' });
  assert.equal(await validate(p, byUser), undefined);
  assert.equal(byUser.annotations.get('pod-security.kubernetes.io/exempt'), 'user');

  const inNamespace = attributes({ object: privilegedPod, namespace: 'kube-system' });
  assert.equal(await validate(p, inNamespace), undefined);
  assert.equal(inNamespace.annotations.get('pod-security.kubernetes.io/exempt'), 'namespace');

  const kata = attributes({ object: pod('k', { ...oneContainer('k', { privileged: true }), runtimeClassName: 'kata' }) });
  assert.equal(await validate(p, kata), undefined);
  assert.equal(kata.annotations.get('pod-security.kubernetes.io/exempt'), 'runtimeClass');

  assert.ok((await validate(p, attributes({ object: pod('r', { ...oneContainer('r', { privileged: true }), runtimeClassName: 'runc' }) }))) instanceof StatusError);
});

test('an update that changes only labels is allowed; an image change is evaluated', async () => {
  const p = plugin(objectsWith({ 'pod-security.kubernetes.io/enforce': 'baseline' }));
  const old = privilegedPod;
  const relabelled = pod('x', oneContainer('x', { privileged: true }), { labels: { a: 'b' } });
  assert.equal(await validate(p, attributes({ operation: 'UPDATE', object: relabelled, oldObject: old })), undefined);
  const newImage = pod('x', { containers: [{ name: 'x', image: 'nginx:2', securityContext: { privileged: true } }] });
  assert.ok((await validate(p, attributes({ operation: 'UPDATE', object: newImage, oldObject: old }))) instanceof StatusError);
  const seccompAnnotated = pod('x', oneContainer('x', { privileged: true }), { annotations: { 'container.seccomp.security.alpha.kubernetes.io/x': 'unconfined' } });
  assert.ok((await validate(p, attributes({ operation: 'UPDATE', object: seccompAnnotated, oldObject: old }))) instanceof StatusError);
});

test('adding an ephemeral container through pods/ephemeralcontainers is evaluated', async () => {
  const p = plugin(objectsWith({ 'pod-security.kubernetes.io/enforce': 'baseline' }));
  const old = pod('x', oneContainer('x'));
  const debug = pod('x', { ...oneContainer('x'), ephemeralContainers: [{ name: 'debug', image: 'busybox', securityContext: { privileged: true } }] });
  const err = await validate(p, attributes({ operation: 'UPDATE', subresource: 'ephemeralcontainers', object: debug, oldObject: old }));
  assert.ok(err instanceof StatusError);
  assert.equal(err.message, 'pods "x" is forbidden: violates PodSecurity "baseline:latest": privileged (container "debug" must not set securityContext.privileged=true)');
  // Unchanged ephemeral containers do not make an update significant.
  assert.equal(await validate(p, attributes({ operation: 'UPDATE', object: debug, oldObject: debug })), undefined);
});

test('sub-resources that carry no pod spec are skipped', async () => {
  const p = plugin(objectsWith({ 'pod-security.kubernetes.io/enforce': 'restricted' }));
  for (const subresource of ['status', 'binding', 'eviction', 'exec', 'attach', 'log', 'portforward', 'proxy']) {
    assert.equal(await validate(p, attributes({ operation: 'UPDATE', subresource, object: privilegedPod, oldObject: pod('x', {}) })), undefined, subresource);
  }
});

test('dry run is evaluated the same way', async () => {
  const attrs = { ...attributes({ object: privilegedPod }), dryRun: true };
  assert.ok((await validate(plugin(objectsWith({ 'pod-security.kubernetes.io/enforce': 'baseline' })), attrs)) instanceof StatusError);
});

test('a pod whose namespace cannot be found is refused with an internal error', async () => {
  const attrs = attributes({ object: privilegedPod, namespace: 'gone' });
  const err = await validate(plugin(new MemoryObjects()), attrs);
  assert.ok(err instanceof StatusError);
  assert.equal(err.code, 500);
  assert.equal(err.message, 'Internal error occurred: failed to lookup namespace "gone"');
  assert.equal(attrs.annotations.get('pod-security.kubernetes.io/error'), 'Internal error occurred: failed to lookup namespace "gone": namespaces "gone" not found');
});

test('a namespace not yet in the informer is read live', async () => {
  const objects = new MemoryObjects();
  objects.freshNamespaces.set('ns', namespace('ns', { 'pod-security.kubernetes.io/enforce': 'baseline' }));
  assert.ok((await validate(plugin(objects), attributes({ object: privilegedPod }))) instanceof StatusError);
});

test('the plugin is validating only and handles CREATE and UPDATE', () => {
  const p = plugin(new MemoryObjects());
  assert.equal(p.name, 'PodSecurity');
  assert.equal(p.admit, undefined);
  assert.deepEqual((['CREATE', 'UPDATE', 'DELETE', 'CONNECT'] as const).map((op) => p.handles(op)), [true, true, false, false]);
});

test('resources without pod templates are ignored', async () => {
  const attrs = attributes({ resource: 'configmaps', kind: 'ConfigMap', object: { metadata: { name: 'c' } } });
  assert.equal(await validate(plugin(objectsWith({ 'pod-security.kubernetes.io/enforce': 'restricted' })), attrs), undefined);
  assert.equal(attrs.annotations.size, 0);
});

test('a pod sub-resource write that carries no pod is refused as undecodable', async () => {
  const attrs = attributes({ operation: 'UPDATE', subresource: 'resize', kind: 'Resize', object: { kind: 'Resize', metadata: { name: 'x' } }, oldObject: privilegedPod });
  const err = await validate(plugin(objectsWith({ 'pod-security.kubernetes.io/enforce': 'restricted' })), attrs);
  assert.ok(err instanceof StatusError);
  assert.equal(err.code, 400);
  assert.equal(err.message, 'failed to decode pod');
  assert.equal(attrs.annotations.get('pod-security.kubernetes.io/error'), 'failed to decode pod');
});
