import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Balancer } from '../../../internal/client/balancer.ts';
import { Endpoint } from '../../../internal/client/endpoints.ts';
import { jitteredBackoffMs } from '../../../internal/client/backoff.ts';

function makeClock() {
  const clock = { nowMs: 0, now: () => clock.nowMs, random: () => 0.5, sleep: async () => {} };
  return clock;
}

test('least-outstanding picks the endpoint with the fewest requests in flight', () => {
  const clock = makeClock();
  const [a, b, c] = ['a', 'b', 'c'].map((u) => new Endpoint(u, clock)) as [Endpoint, Endpoint, Endpoint];
  const balancer = new Balancer([a, b, c], 'least-outstanding');
  a.outstanding = 3;
  b.outstanding = 1;
  c.outstanding = 2;
  assert.equal(balancer.pick(), b);
  b.outstanding = 5;
  assert.equal(balancer.pick(), c);
});

test('a retry avoids endpoints already tried while others are available', () => {
  const clock = makeClock();
  const endpoints = ['a', 'b', 'c'].map((u) => new Endpoint(u, clock));
  const balancer = new Balancer(endpoints, 'round-robin');
  const first = balancer.pick();
  const second = balancer.pick(new Set([first]));
  assert.notEqual(second, first);
  assert.equal(balancer.pick(new Set(endpoints)).url.length, 1, 'falls back to a tried endpoint when all were tried');
});

test('an ejected endpoint is skipped until its probe succeeds; ejection grows with consecutive failures', () => {
  const clock = makeClock();
  const [a, b] = ['a', 'b'].map((u) => new Endpoint(u, clock)) as [Endpoint, Endpoint];
  const balancer = new Balancer([a, b], 'round-robin');
  a.recordFailure();
  const firstPeriod = a.ejectedUntil - clock.nowMs;
  for (let i = 0; i < 4; i += 1) assert.equal(balancer.pick(), b);
  assert.equal(a.beginProbe(), false, 'not due yet');
  clock.nowMs = a.ejectedUntil;
  assert.equal(a.beginProbe(), true);
  assert.equal(a.state, 'probing');
  a.endProbe(false);
  assert.ok(a.ejectedUntil - clock.nowMs > firstPeriod, 'second ejection is longer');
  clock.nowMs = a.ejectedUntil;
  assert.equal(a.beginProbe(), true);
  a.endProbe(true);
  assert.equal(a.state, 'healthy');
  assert.deepEqual(new Set([balancer.pick(), balancer.pick()]), new Set([a, b]));
});

test('when every endpoint is ejected the one whose ejection ends first is tried', () => {
  const clock = makeClock();
  const [a, b] = ['a', 'b'].map((u) => new Endpoint(u, clock)) as [Endpoint, Endpoint];
  b.recordFailure();
  clock.nowMs = 100;
  a.recordFailure();
  a.recordFailure();
  assert.equal(new Balancer([a, b], 'round-robin').pick(), b);
});

test('retry backoff is jittered and capped', () => {
  assert.equal(jitteredBackoffMs(1, 100, 1000, () => 0.999), 99);
  assert.equal(jitteredBackoffMs(10, 100, 1000, () => 0.5), 500);
  assert.equal(jitteredBackoffMs(3, 100, 1000, () => 0), 0);
});
