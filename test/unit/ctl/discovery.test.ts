import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CtlError } from '../../../internal/ctl/command.ts';
import { collectionPath, displayName, objectPath, resolveResource, resourceForKind, type ApiResource } from '../../../internal/ctl/discovery.ts';

function resource(fields: Partial<ApiResource> & Pick<ApiResource, 'name' | 'kind'>): ApiResource {
  return { group: '', version: 'v1', singularName: fields.kind.toLowerCase(), shortNames: [], namespaced: true, verbs: ['get', 'list'], preferred: true, ...fields };
}

const resources: ApiResource[] = [
  resource({ name: 'pods', kind: 'Pod', shortNames: ['po'] }),
  resource({ name: 'namespaces', kind: 'Namespace', shortNames: ['ns'], namespaced: false }),
  resource({ name: 'deployments', kind: 'Deployment', group: 'apps', shortNames: ['deploy'] }),
  resource({ name: 'events', kind: 'Event', shortNames: ['ev'] }),
  resource({ name: 'events', kind: 'Event', group: 'events.k8s.io', shortNames: ['ev'] }),
  resource({ name: 'horizontalpodautoscalers', kind: 'HorizontalPodAutoscaler', group: 'autoscaling', version: 'v2', shortNames: ['hpa'] }),
  resource({ name: 'horizontalpodautoscalers', kind: 'HorizontalPodAutoscaler', group: 'autoscaling', version: 'v1', shortNames: ['hpa'], preferred: false }),
];

test('a resource resolves by plural, singular, short name or kind, case-insensitively', () => {
  for (const text of ['pods', 'pod', 'po', 'Pod', 'PODS']) assert.equal(resolveResource(resources, text).name, 'pods', text);
  assert.equal(resolveResource(resources, 'deploy').group, 'apps');
  assert.equal(resolveResource(resources, 'Deployment').name, 'deployments');
});

test('a group qualifies a name: events.events.k8s.io, deployments.apps, hpa.v1.autoscaling', () => {
  assert.equal(resolveResource(resources, 'events').group, '', 'the core group comes first');
  assert.equal(resolveResource(resources, 'events.events.k8s.io').group, 'events.k8s.io');
  assert.equal(resolveResource(resources, 'deployments.apps').name, 'deployments');
  assert.equal(resolveResource(resources, 'hpa').version, 'v2', 'the preferred version wins');
  assert.equal(resolveResource(resources, 'horizontalpodautoscalers.v1.autoscaling').version, 'v1');
  assert.equal(resolveResource(resources, 'pods.v1').name, 'pods');
});

test('an unknown resource is an error naming it', () => {
  assert.throws(() => resolveResource(resources, 'widgets'), (e: unknown) => e instanceof CtlError && /doesn't have a resource type "widgets"/.test(e.message));
  assert.throws(() => resolveResource(resources, 'deployments.batch'), CtlError);
});

test('a manifest kind resolves through its apiVersion', () => {
  assert.equal(resourceForKind(resources, 'apps/v1', 'Deployment').name, 'deployments');
  assert.equal(resourceForKind(resources, 'autoscaling/v1', 'HorizontalPodAutoscaler').version, 'v1');
  assert.throws(() => resourceForKind(resources, 'apps/v1beta1', 'Deployment'), /no kind Deployment in apps\/v1beta1/);
});

test('paths and display names follow the group, version and scope', () => {
  const pods = resolveResource(resources, 'pods');
  const namespaces = resolveResource(resources, 'ns');
  const deployments = resolveResource(resources, 'deploy');
  assert.equal(collectionPath(pods, 'kube-system'), '/api/v1/namespaces/kube-system/pods');
  assert.equal(collectionPath(pods, undefined), '/api/v1/pods');
  assert.equal(collectionPath(namespaces, 'ignored'), '/api/v1/namespaces');
  assert.equal(objectPath(deployments, 'default', 'web'), '/apis/apps/v1/namespaces/default/deployments/web');
  assert.equal(displayName(deployments, 'web'), 'deployment.apps/web');
  assert.equal(displayName(pods, 'p'), 'pod/p');
});
