import assert from 'node:assert/strict';
import { test } from 'node:test';
import { eventRateLimitPlugin } from '../../../../internal/admission/plugins/event-rate-limit/event-rate-limit.ts';
import type { KObject } from '../../../../internal/registry/schema/declaration.ts';
import { attributes, rejectsWith, testDeps, user } from './helpers.ts';

const apiVersion = 'eventratelimit.admission.k8s.io/v1alpha1';

function config(...limits: Record<string, unknown>[]) {
  return { apiVersion, kind: 'Configuration', limits };
}

function event(name: string, component = 'kubelet', involved = 'pod-a'): KObject {
  return { apiVersion: 'v1', kind: 'Event', metadata: { name, namespace: 'default' }, source: { component, host: 'n1' }, involvedObject: { kind: 'Pod', namespace: 'default', name: involved, uid: 'u', apiVersion: 'v1' } };
}

function eventRequest(overrides: Parameters<typeof attributes>[0] = {}) {
  return attributes({ resource: { resource: 'events' }, kind: { kind: 'Event' }, object: event('e'), ...overrides });
}

test('EventRateLimit refuses past the burst with 429 and refills at qps on the clock', async () => {
  const deps = testDeps();
  const plugin = eventRateLimitPlugin(deps, config({ type: 'Server', qps: 2, burst: 3 }));
  for (let i = 0; i < 3; i++) await plugin.validate!(eventRequest());
  const error = await rejectsWith(plugin.validate!(eventRequest()), 429, 'Too many requests: limit reached on type Server for key ');
  assert.equal(error.reason, 'TooManyRequests');
  deps.nowMs += 500;
  await plugin.validate!(eventRequest());
  await rejectsWith(plugin.validate!(eventRequest()), 429, 'Too many requests: limit reached on type Server for key ');
});

test('EventRateLimit keeps one bucket per namespace, user, or source and object', async () => {
  const plugin = eventRateLimitPlugin(testDeps(), config({ type: 'Namespace', qps: 1, burst: 1 }, { type: 'User', qps: 1, burst: 2 }));
  await plugin.validate!(eventRequest({ namespace: 'a' }));
  await rejectsWith(plugin.validate!(eventRequest({ namespace: 'a' })), 429, 'Too many requests: limit reached on type Namespace for key a');
  // The user's second token went to the refused request too: kube charges every limit.
  await rejectsWith(plugin.validate!(eventRequest({ namespace: 'b' })), 429, 'Too many requests: limit reached on type User for key alice');
  await rejectsWith(
    plugin.validate!(eventRequest({ namespace: 'a' })),
    429,
    'Too many requests: [limit reached on type Namespace for key a, limit reached on type User for key alice]',
  );
  await plugin.validate!(eventRequest({ namespace: 'c', userInfo: user('bob') }));
  const bySource = eventRateLimitPlugin(testDeps(), config({ type: 'SourceAndObject', qps: 1, burst: 1 }));
  await bySource.validate!(eventRequest());
  await bySource.validate!(eventRequest({ object: event('e', 'kubelet', 'pod-b') }));
  await rejectsWith(bySource.validate!(eventRequest()), 429, 'Too many requests: limit reached on type SourceAndObject for key kubeletn1Poddefaultpod-auv1');
});

test('EventRateLimit evicts the least recently used key past cacheSize', async () => {
  const plugin = eventRateLimitPlugin(testDeps(), config({ type: 'Namespace', qps: 1, burst: 1, cacheSize: 1 }));
  await plugin.validate!(eventRequest({ namespace: 'a' }));
  await plugin.validate!(eventRequest({ namespace: 'b' }));
  // a's empty bucket was dropped for b's, so a starts full again.
  await plugin.validate!(eventRequest({ namespace: 'a' }));
});

test('EventRateLimit ignores dry runs and kinds other than core Event', async () => {
  const plugin = eventRateLimitPlugin(testDeps(), config({ type: 'Server', qps: 1, burst: 1 }));
  await plugin.validate!(eventRequest({ dryRun: true }));
  await plugin.validate!(eventRequest({ kind: { group: 'events.k8s.io', kind: 'Event' } }));
  await plugin.validate!(attributes());
  await plugin.validate!(eventRequest());
  await rejectsWith(plugin.validate!(eventRequest()), 429, 'Too many requests: limit reached on type Server for key ');
});

test('EventRateLimit refuses a missing or malformed configuration with kube messages', () => {
  const deps = testDeps();
  assert.throws(() => eventRateLimitPlugin(deps, undefined), { message: 'limits: Invalid value: []eventratelimit.Limit(nil): must not be empty' });
  assert.throws(() => eventRateLimitPlugin(deps, config()), { message: 'limits: Invalid value: []eventratelimit.Limit{}: must not be empty' });
  assert.throws(() => eventRateLimitPlugin(deps, config({ type: 'Pod', qps: 0, burst: -1, cacheSize: -1 })), {
    message:
      '[limits[0].type: Unsupported value: "Pod": supported values: "Namespace", "Server", "SourceAndObject", "User", limits[0].burst: Invalid value: -1: must be positive, ' +
      'limits[0].qps: Invalid value: 0: must be positive, limits[0].cacheSize: Invalid value: -1: must not be negative]',
  });
  assert.throws(() => eventRateLimitPlugin(deps, { apiVersion: 'v1', kind: 'Configuration', limits: [] }), /expected kind "Configuration" of apiVersion "eventratelimit.admission.k8s.io\/v1alpha1"/);
  assert.throws(() => eventRateLimitPlugin(deps, config({ type: 'Server', qps: 1.5, burst: 1 })), /limits\[0\]\.qps: Invalid value: 1.5: must be an integer/);
});
