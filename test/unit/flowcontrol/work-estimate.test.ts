// Seats as kube-apiserver 1.28's work estimator counts them: lists by the objects they go
// through (one seat per 100, from the watch cache or from storage), between 1 and the level's
// maximum; every other request one seat.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { compileConfiguration } from '../../../internal/flowcontrol/configuration.ts';
import type { RequestDigest } from '../../../internal/flowcontrol/types.ts';
import { estimateSeats, listsFromStorage, maxSeatsOf, type ListQuery } from '../../../internal/flowcontrol/work-estimate.ts';
import { mandatoryPriorityLevels, suggestedPriorityLevels } from '../../../internal/registry/flowcontrol/bootstrap-configuration.ts';

const alice = { username: 'alice', groups: ['system:authenticated'] };

function request(over: Partial<NonNullable<RequestDigest['resource']>> = {}): RequestDigest {
  return { user: alice, resource: { verb: 'list', apiGroup: '', resource: 'pods', subresource: '', namespace: '', name: '', ...over } };
}

const counting = (n: number | undefined) => () => n;
const fromStorage: ListQuery = { hasSelectors: false };
const fromCache: ListQuery = { hasSelectors: false, resourceVersion: '0' };

describe('lists', () => {
  it('from the watch cache cost a seat per 100 stored objects, whatever the limit', () => {
    assert.equal(estimateSeats(request(), counting(250), fromCache), 3);
    assert.equal(estimateSeats(request(), counting(250), { ...fromCache, limit: 10 }), 3);
  });

  it('from storage cost twice the page', () => {
    assert.equal(estimateSeats(request(), counting(250), fromStorage), 5);
    assert.equal(estimateSeats(request(), counting(2000), { hasSelectors: false, limit: 100 }), 2);
    assert.equal(estimateSeats(request(), counting(30), { hasSelectors: false, limit: 500 }), 1);
  });

  it('from storage with selectors cost every stored object plus the page', () => {
    assert.equal(estimateSeats(request(), counting(450), { hasSelectors: true, limit: 50 }), 5);
  });

  it('cost at least one seat and at most the maximum', () => {
    assert.equal(estimateSeats(request(), counting(0), fromStorage), 1);
    assert.equal(estimateSeats(request(), counting(1_000_000), fromStorage), 10);
    assert.equal(estimateSeats(request(), counting(1_000_000), fromStorage, 4), 4);
    assert.equal(estimateSeats(request(), counting(1_000_000), fromStorage, 0), 10, '0: no level maximum');
    assert.equal(estimateSeats(request(), counting(1_000_000), fromStorage, 50), 10, 'never above 10');
  });

  it('of an unknown resource cost one seat (kube: maybe an aggregated API, served elsewhere)', () => {
    assert.equal(estimateSeats(request(), counting(undefined), fromStorage), 1);
  });

  it('of one named object cost one seat', () => {
    assert.equal(estimateSeats(request({ name: 'web' }), counting(5000), fromStorage), 1);
  });

  it('ask the counter about their group, resource and namespace', () => {
    const asked: string[][] = [];
    estimateSeats(request({ apiGroup: 'apps', resource: 'deployments', namespace: 'ns' }), (...key) => (asked.push(key), 1), fromStorage);
    assert.deepEqual(asked, [['apps', 'deployments', 'ns']]);
  });
});

describe('where a list is served from', () => {
  it('storage for a consistent read, a continuation, a page at a resourceVersion other than 0, an exact match', () => {
    assert.equal(listsFromStorage({ hasSelectors: false }), true);
    assert.equal(listsFromStorage({ hasSelectors: false, resourceVersion: '0', continue: 'token' }), true);
    assert.equal(listsFromStorage({ hasSelectors: false, resourceVersion: '15', limit: 10 }), true);
    assert.equal(listsFromStorage({ hasSelectors: false, resourceVersion: '15', resourceVersionMatch: 'Exact' }), true);
  });

  it('the watch cache for resourceVersion 0 (even paged) or a not-older-than read', () => {
    assert.equal(listsFromStorage({ hasSelectors: false, resourceVersion: '0', limit: 10 }), false);
    assert.equal(listsFromStorage({ hasSelectors: false, resourceVersion: '15' }), false);
    assert.equal(listsFromStorage({ hasSelectors: false, resourceVersion: '15', resourceVersionMatch: 'NotOlderThan' }), false);
  });
});

describe('other requests', () => {
  it('a watch costs one seat, unless it asks for initial events: then as a list from the cache', () => {
    assert.equal(estimateSeats(request({ verb: 'watch' }), counting(5000), fromStorage), 1);
    assert.equal(estimateSeats(request({ verb: 'watch' }), counting(450), { hasSelectors: false, sendInitialEvents: true, limit: 10 }), 5);
  });

  it('gets, writes and non-resource requests cost one seat', () => {
    for (const verb of ['get', 'create', 'update', 'patch', 'delete', 'deletecollection']) assert.equal(estimateSeats(request({ verb }), counting(5000), fromStorage), 1, verb);
    assert.equal(estimateSeats({ user: alice, nonResource: { verb: 'get', path: '/metrics' } }, counting(5000), fromStorage), 1);
  });
});

describe('a level maximum', () => {
  const stored = [...mandatoryPriorityLevels, ...suggestedPriorityLevels].map((b) => ({ metadata: { name: b.name }, spec: b.spec }));

  it('is min(15% of the limit, limit / hand size), between 1 and 10; 10 for levels without queues', () => {
    const levels = compileConfiguration([], stored, 600).priorityLevels;
    const max = (name: string) => {
      const level = levels.get(name);
      assert.ok(level);
      return maxSeatsOf(level);
    };
    assert.equal(max('global-default'), 8); // limit 49, hand size 6
    assert.equal(max('leader-election'), 4); // limit 25: ceil(3.75)
    assert.equal(max('workload-low'), 10);
    assert.equal(max('catch-all'), 10);
    assert.equal(max('exempt'), 10);
    const small = compileConfiguration([], stored, 20).priorityLevels.get('global-default');
    assert.ok(small);
    assert.equal(maxSeatsOf(small), 1); // limit 2, hand size 6
  });
});
