// A check costs 350,000 whether or not its decision is known yet, charged before a pending check
// is queued: a loop of checks asks only as many as the cost limit allows (kube stops at the
// third), not up to the 64-check cap.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compileAdmissionExpression } from '../../../internal/cel/index.ts';
import type { AuthorizationCheck } from '../../../internal/cel/library/index.ts';

const variables = ['object', 'request', 'authorizer'];
const list = `[${Array.from({ length: 200 }, (_, i) => i).join(',')}]`;

function countingAuthorizer(allowed: boolean) {
  const asked: AuthorizationCheck[] = [];
  return { asked, check: async (attrs: AuthorizationCheck) => (asked.push(attrs), { allowed, reason: '' }) };
}

test('authorizer check budget: checks in a loop stop at the cost limit', async () => {
  for (const expression of [
    `${list}.exists(i, authorizer.group('').resource('secrets').namespace('ns' + string(i)).check('get').allowed())`,
    `${list}.all(i, !authorizer.group('').resource('secrets').namespace('ns' + string(i)).check('get').allowed())`,
  ]) {
    const authorizer = countingAuthorizer(false);
    const compiled = compileAdmissionExpression(expression, variables).compiled;
    assert.ok(compiled !== undefined);
    const outcome = await compiled.evaluate({ authorizer, request: { resource: { group: '', resource: 'pods' } } });
    assert.equal((outcome as { error?: string }).error, 'operation cancelled: actual cost limit exceeded');
    assert.ok(authorizer.asked.length <= 3, `asked ${authorizer.asked.length}`);
  }
});

test('authorizer check budget: checks within the budget are still asked and answered', async () => {
  const authorizer = countingAuthorizer(true);
  const compiled = compileAdmissionExpression("authorizer.group('').resource('a').check('get').allowed() && authorizer.group('').resource('b').check('get').allowed()", variables).compiled;
  assert.ok(compiled !== undefined);
  const outcome = await compiled.evaluate({ authorizer });
  assert.deepEqual(outcome, { value: true, cost: (outcome as { cost: number }).cost });
  assert.equal(authorizer.asked.length, 2);
  assert.ok((outcome as { cost: number }).cost >= 700_000);
});
