// The plugin on namespaces: bad policy labels are refused with kube's 422, and tightening the
// enforce level warns about existing pods that would now be refused.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { StatusError } from '../../../../internal/registry/errors/status-error.ts';
import type { KObject } from '../../../../internal/registry/schema/declaration.ts';
import { MemoryObjects, attributes, namespace, oneContainer, plugin, pod, restrictedContainerContext, validate } from './harness.ts';

function namespaceRequest(operation: 'CREATE' | 'UPDATE', object: KObject, oldObject?: KObject) {
  return attributes({ operation, resource: 'namespaces', kind: 'Namespace', namespace: operation === 'UPDATE' ? (object.metadata.name ?? '') : '', name: object.metadata.name ?? '', object, oldObject });
}

const enforce = (level: string, version?: string): Record<string, string> => ({
  'pod-security.kubernetes.io/enforce': level,
  ...(version === undefined ? {} : { 'pod-security.kubernetes.io/enforce-version': version }),
});

test('creating a namespace with a bad label is refused with 422 naming the label', async () => {
  const err = await validate(plugin(new MemoryObjects()), namespaceRequest('CREATE', namespace('n', { 'pod-security.kubernetes.io/enforce': 'strict' })));
  assert.ok(err instanceof StatusError);
  assert.equal(err.code, 422);
  assert.equal(err.reason, 'Invalid');
  assert.equal(err.message, 'Namespace "n" is invalid: metadata.labels[pod-security.kubernetes.io/enforce]: Invalid value: "strict": must be one of privileged, baseline, restricted');
  assert.deepEqual(err.details?.causes, [{ reason: 'FieldValueInvalid', message: 'Invalid value: "strict": must be one of privileged, baseline, restricted', field: 'metadata.labels[pod-security.kubernetes.io/enforce]' }]);

  const versions = await validate(plugin(new MemoryObjects()), namespaceRequest('CREATE', namespace('n', { 'pod-security.kubernetes.io/audit-version': '1.25', 'pod-security.kubernetes.io/warn-version': 'v1.25' })));
  assert.ok(versions instanceof StatusError);
  assert.equal(versions.message, 'Namespace "n" is invalid: metadata.labels[pod-security.kubernetes.io/audit-version]: Invalid value: "1.25": must be "latest" or "v1.x"');
});

test('creating a namespace with good labels is allowed', async () => {
  assert.equal(await validate(plugin(new MemoryObjects()), namespaceRequest('CREATE', namespace('n', { ...enforce('restricted', 'v1.28'), 'pod-security.kubernetes.io/warn': 'baseline' }))), undefined);
});

test('an update keeping the same bad labels is allowed; changing them to other bad values is refused', async () => {
  const bad = namespace('n', enforce('strict'));
  const relabelled = namespace('n', { ...enforce('strict'), team: 'a' });
  assert.equal(await validate(plugin(new MemoryObjects()), namespaceRequest('UPDATE', relabelled, bad)), undefined);
  const worse = namespace('n', enforce('stricter'));
  assert.ok((await validate(plugin(new MemoryObjects()), namespaceRequest('UPDATE', worse, bad))) instanceof StatusError);
  assert.ok((await validate(plugin(new MemoryObjects()), namespaceRequest('UPDATE', bad, namespace('n')))) instanceof StatusError);
});

function objectsWithPods(pods: KObject[]): MemoryObjects {
  const objects = new MemoryObjects();
  for (const p of pods) objects.pods.push(p);
  return objects;
}

const privileged = (name: string, metadata: Record<string, unknown> = {}) => pod(name, oneContainer(name, { privileged: true }), metadata);
const compliant = (name: string) => pod(name, oneContainer(name, restrictedContainerContext));

test('tightening enforce warns about existing pods, grouped by reasons and sorted', async () => {
  const objects = objectsWithPods([
    privileged('b'),
    privileged('a'),
    privileged('c'),
    pod('h', { hostNetwork: true, ...oneContainer('h') }),
    compliant('ok'),
    pod('other-ns', oneContainer('x', { privileged: true }), { namespace: 'elsewhere' }),
  ]);
  const attrs = namespaceRequest('UPDATE', namespace('ns', enforce('baseline')), namespace('ns'));
  assert.equal(await validate(plugin(objects), attrs), undefined);
  assert.deepEqual(attrs.warnings, [
    'existing pods in namespace "ns" violate the new PodSecurity enforce level "baseline:latest"',
    'a (and 2 other pods): privileged',
    'h: host namespaces',
  ]);
});

test('two pods with the same violation are counted as one other pod', async () => {
  const objects = objectsWithPods([privileged('y'), privileged('x')]);
  const attrs = namespaceRequest('UPDATE', namespace('ns', enforce('baseline')), namespace('ns'));
  await validate(plugin(objects), attrs);
  assert.deepEqual(attrs.warnings.slice(1), ['x (and 1 other pod): privileged']);
});

test('existing pods are not checked when enforce is unchanged, relaxed, privileged, or the namespace exempt', async () => {
  const objects = objectsWithPods([privileged('a')]);
  const cases: [KObject, KObject][] = [
    [namespace('ns', { ...enforce('baseline'), team: 'x' }), namespace('ns', enforce('baseline'))],
    [namespace('ns', enforce('baseline')), namespace('ns', enforce('restricted'))],
    [namespace('ns', enforce('privileged', 'v1.20')), namespace('ns', enforce('restricted'))],
  ];
  for (const [object, old] of cases) {
    const attrs = namespaceRequest('UPDATE', object, old);
    assert.equal(await validate(plugin(objects), attrs), undefined);
    assert.deepEqual(attrs.warnings, []);
  }
  // A version change at the same level is checked again.
  const repinned = namespaceRequest('UPDATE', namespace('ns', enforce('baseline', 'v1.20')), namespace('ns', enforce('baseline')));
  await validate(plugin(objects), repinned);
  assert.equal(repinned.warnings.length, 2);
});

test('an exempt namespace labelled with a policy warns that the policy is ignored', async () => {
  const configuration = { apiVersion: 'pod-security.admission.config.k8s.io/v1', kind: 'PodSecurityConfiguration', exemptions: { namespaces: ['ns'] } };
  const objects = objectsWithPods([privileged('a')]);
  const update = namespaceRequest('UPDATE', namespace('ns', { ...enforce('baseline'), 'pod-security.kubernetes.io/audit': 'restricted' }), namespace('ns'));
  assert.equal(await validate(plugin(objects, configuration), update), undefined);
  assert.deepEqual(update.warnings, ['namespace "ns" is exempt from Pod Security, and the policy (enforce=baseline:latest, audit=restricted:latest) will be ignored']);
  const create = namespaceRequest('CREATE', namespace('ns', { 'pod-security.kubernetes.io/warn': 'baseline', 'pod-security.kubernetes.io/warn-version': 'v1.27' }));
  await validate(plugin(objects, configuration), create);
  assert.deepEqual(create.warnings, ['namespace "ns" is exempt from Pod Security, and the policy (warn=baseline:v1.27) will be ignored']);
  const plain = namespaceRequest('CREATE', namespace('ns', { 'pod-security.kubernetes.io/enforce': 'privileged' }));
  await validate(plugin(objects, configuration), plain);
  assert.deepEqual(plain.warnings, []);
});

test('pods of one controller are checked after the other pods, and pods of exempt runtime classes not at all', async () => {
  const owner = (uid: string) => ({ ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'rs', uid, controller: true }] });
  const objects = objectsWithPods([
    privileged('r1', owner('u')),
    privileged('r2', owner('u')),
    pod('k', { ...oneContainer('k', { privileged: true }), runtimeClassName: 'kata' }),
    pod('solo', { hostNetwork: true, ...oneContainer('solo') }),
  ]);
  const configuration = { apiVersion: 'pod-security.admission.config.k8s.io/v1', kind: 'PodSecurityConfiguration', exemptions: { runtimeClasses: ['kata'] } };
  let nowMs = 0;
  // The clock runs out after two pods: r1 and solo, the controller's second pod waiting last.
  const attrs = namespaceRequest('UPDATE', namespace('ns', enforce('baseline')), namespace('ns'));
  await validate(plugin(objects, configuration, () => (nowMs += 500)), attrs);
  assert.deepEqual(attrs.warnings, [
    'new PodSecurity enforce level only checked against the first 2 of 3 existing pods',
    'existing pods in namespace "ns" violate the new PodSecurity enforce level "baseline:latest"',
    'r1: privileged',
    'solo: host namespaces',
  ]);
});

test('a failure to list pods becomes a warning', async () => {
  const objects = new MemoryObjects();
  objects.listFailure = new Error('boom');
  const attrs = namespaceRequest('UPDATE', namespace('ns', enforce('restricted')), namespace('ns'));
  assert.equal(await validate(plugin(objects), attrs), undefined);
  assert.deepEqual(attrs.warnings, ['failed to list pods while checking new PodSecurity enforce level']);
});

test('namespace sub-resources are skipped', async () => {
  const attrs = attributes({ operation: 'UPDATE', resource: 'namespaces', kind: 'Namespace', subresource: 'finalize', object: namespace('n', enforce('strict')), oldObject: namespace('n') });
  assert.equal(await validate(plugin(new MemoryObjects()), attrs), undefined);
});

test('at most 3000 existing pods are checked', async () => {
  const objects = objectsWithPods(Array.from({ length: 3001 }, (_, i) => privileged(`p${String(i).padStart(4, '0')}`)));
  const attrs = namespaceRequest('UPDATE', namespace('ns', enforce('baseline')), namespace('ns'));
  await validate(plugin(objects), attrs);
  assert.deepEqual(attrs.warnings, [
    'new PodSecurity enforce level only checked against the first 3000 of 3001 existing pods',
    'existing pods in namespace "ns" violate the new PodSecurity enforce level "baseline:latest"',
    'p0000 (and 2999 other pods): privileged',
  ]);
});
