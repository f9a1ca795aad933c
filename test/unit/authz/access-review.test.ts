// Access reviews and small formatting helpers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { accessReviewStatus, attributesFromReviewSpec, userFromReviewSpec } from '../../../internal/authz/access-review.ts';
import { buildAuthorization } from '../../../internal/authz/authorization-modes.ts';
import { aggregateMessage, goQuote, goQuoteList } from '../../../internal/authz/go-format.ts';
import { TtlCache } from '../../../internal/authz/webhook/ttl-cache.ts';
import { indexOf, rbac, user } from './fixtures.ts';

test('a SubjectAccessReview spec is evaluated for the user it names', async () => {
  const index = indexOf([rbac.clusterRole('r', [{ verbs: ['get'], apiGroups: ['apps'], resources: ['deployments'] }]), rbac.roleBinding('d', 'b', 'ClusterRole', 'r', [{ kind: 'Group', name: 'devs' }])]);
  const { authorizer } = buildAuthorization({ modes: ['RBAC'], rbacIndex: index });
  const spec = { user: 'carol', groups: ['devs'], resourceAttributes: { namespace: 'd', verb: 'get', group: 'apps', resource: 'deployments', name: 'x' } };
  const reviewed = userFromReviewSpec(spec);
  assert.deepEqual(reviewed, { username: 'carol', uid: '', groups: ['devs'], extra: {} });
  const attributes = attributesFromReviewSpec(reviewed, spec);
  assert.equal(attributes.apiVersion, '*');
  assert.deepEqual(await accessReviewStatus(authorizer, attributes), { allowed: true, reason: 'RBAC: allowed by RoleBinding "b/d" of ClusterRole "r" to Group "devs"' });
  assert.deepEqual(await accessReviewStatus(authorizer, attributesFromReviewSpec(user('self'), { nonResourceAttributes: { path: '/x', verb: 'get' } })), { allowed: false });
  assert.deepEqual(userFromReviewSpec({ user: 'u', group: ['g'], extra: { k: ['v'] } }).groups, ['g']);
});

test('Go quoting and aggregate messages', () => {
  assert.equal(goQuote('a"b\\c\n\u0001é'), '"a\\"b\\\\c\\n\\x01é"');
  assert.equal(goQuoteList(['a', 'b']), '["a" "b"]');
  assert.equal(goQuoteList([]), '[]');
  assert.equal(aggregateMessage([new Error('x')]), 'x');
  assert.equal(aggregateMessage([new Error('x'), new Error('y'), new Error('x')]), '[x, y]');
});

test('the TTL cache expires entries and stays within its bound', () => {
  let now = 0;
  const cache = new TtlCache<number>(2, () => now);
  cache.set('a', 1, 10);
  cache.set('b', 2, 10);
  cache.set('c', 3, 10);
  assert.deepEqual([cache.get('a'), cache.get('b'), cache.get('c'), cache.size], [undefined, 2, 3, 2]);
  now = 10;
  assert.equal(cache.get('b'), undefined);
});
