import { test } from 'node:test';
import assert from 'node:assert/strict';
import { matches } from '../../../internal/quota/registry.ts';
import { calculateUsage } from '../../../internal/quota/usage-stats.ts';
import { resourceListToJson } from '../../../internal/quota/resource-list.ts';
import type { KObject } from '../../../internal/registry/schema/declaration.ts';

// Which quotas apply to which objects: resources named in status.hard, and every scope of the quota.

function quota(spec: Record<string, unknown>, hard: Record<string, string> = { pods: '10' }): KObject {
  return { metadata: { name: 'q', namespace: 'ns' }, spec: { hard, ...spec }, status: { hard, used: {} } };
}

function pod(spec: Record<string, unknown>): KObject {
  return { metadata: { name: 'p', namespace: 'ns' }, spec: { containers: [{ name: 'a' }], ...spec } };
}

const burstable = { containers: [{ name: 'a', resources: { requests: { cpu: '100m' } } }] };

test('a quota applies only when its status.hard names something the kind is charged', () => {
  assert.equal(matches('', 'pods', quota({}, { pods: '1' }), pod({})), true);
  assert.equal(matches('', 'pods', quota({}, { services: '1' }), pod({})), false);
  assert.equal(matches('', 'pods', { metadata: { name: 'q' }, spec: { hard: { pods: '1' } } }, pod({})), false);
});

test('Terminating and NotTerminating follow activeDeadlineSeconds', () => {
  const terminating = pod({ activeDeadlineSeconds: 60 });
  assert.equal(matches('', 'pods', quota({ scopes: ['Terminating'] }), terminating), true);
  assert.equal(matches('', 'pods', quota({ scopes: ['NotTerminating'] }), terminating), false);
  assert.equal(matches('', 'pods', quota({ scopes: ['NotTerminating'] }), pod({})), true);
});

test('BestEffort is a pod without any cpu or memory request or limit', () => {
  assert.equal(matches('', 'pods', quota({ scopes: ['BestEffort'] }), pod({})), true);
  assert.equal(matches('', 'pods', quota({ scopes: ['BestEffort'] }), pod(burstable)), false);
  assert.equal(matches('', 'pods', quota({ scopes: ['NotBestEffort'] }), pod(burstable)), true);
  const initOnly = pod({ initContainers: [{ name: 'i', resources: { limits: { memory: '1Mi' } } }] });
  assert.equal(matches('', 'pods', quota({ scopes: ['NotBestEffort'] }), initOnly), true);
});

test('PriorityClass selectors test the pod priorityClassName with In, NotIn, Exists and DoesNotExist', () => {
  const selector = (operator: string, values?: string[]): Record<string, unknown> => ({ scopeSelector: { matchExpressions: [{ scopeName: 'PriorityClass', operator, values }] } });
  const high = pod({ priorityClassName: 'high' });
  const none = pod({});
  assert.equal(matches('', 'pods', quota(selector('In', ['high', 'mid'])), high), true);
  assert.equal(matches('', 'pods', quota(selector('In', ['low'])), high), false);
  assert.equal(matches('', 'pods', quota(selector('In', ['high'])), none), false);
  assert.equal(matches('', 'pods', quota(selector('NotIn', ['low'])), high), true);
  assert.equal(matches('', 'pods', quota(selector('NotIn', ['low'])), none), true);
  assert.equal(matches('', 'pods', quota(selector('Exists')), high), true);
  assert.equal(matches('', 'pods', quota(selector('Exists')), none), false);
  assert.equal(matches('', 'pods', quota(selector('DoesNotExist')), none), true);
  assert.equal(matches('', 'pods', quota(selector('DoesNotExist')), high), false);
});

test('CrossNamespacePodAffinity is a (anti-)affinity term naming namespaces or a namespace selector', () => {
  const q = quota({ scopeSelector: { matchExpressions: [{ scopeName: 'CrossNamespacePodAffinity', operator: 'Exists' }] } });
  const term = (extra: Record<string, unknown>): Record<string, unknown> => ({ topologyKey: 'zone', labelSelector: {}, ...extra });
  assert.equal(matches('', 'pods', q, pod({ affinity: { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [term({ namespaces: ['other'] })] } } })), true);
  assert.equal(matches('', 'pods', q, pod({ affinity: { podAntiAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 1, podAffinityTerm: term({ namespaceSelector: {} }) }] } } })), true);
  assert.equal(matches('', 'pods', q, pod({ affinity: { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [term({})] } } })), false);
  assert.equal(matches('', 'pods', q, pod({})), false);
});

test('every scope must match; a scoped quota never applies to kinds without scopes', () => {
  assert.equal(matches('', 'pods', quota({ scopes: ['BestEffort', 'Terminating'] }), pod({ activeDeadlineSeconds: 1 })), true);
  assert.equal(matches('', 'pods', quota({ scopes: ['BestEffort', 'Terminating'] }), pod({})), false);
  const svc: KObject = { metadata: { name: 's' }, spec: { type: 'ClusterIP' } };
  assert.equal(matches('', 'services', quota({}, { services: '5' }), svc), true);
  assert.equal(matches('', 'services', quota({ scopes: ['NotTerminating'] }, { services: '5' }), svc), false);
});

test('the controller sums usage over full lists, within the quota scopes, zero when nothing is used', () => {
  const q = quota({ scopes: ['NotBestEffort'] }, { pods: '10', 'requests.cpu': '4', services: '3', 'example.com/widgets': '1' });
  const pods = [pod(burstable), pod(burstable), pod({}), { ...pod(burstable), status: { phase: 'Succeeded' } }];
  const used = calculateUsage(q, ['pods', 'requests.cpu', 'services', 'example.com/widgets'], [{ group: '', resource: 'pods', objects: pods }, { group: '', resource: 'services', objects: [] }], 0);
  assert.deepEqual(resourceListToJson(used), { pods: '2', 'requests.cpu': '200m', services: '0' });
});
