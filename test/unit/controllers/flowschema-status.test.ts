import assert from 'node:assert/strict';
import { test } from 'node:test';
import { withDanglingCondition } from '../../../internal/controllers/flowschema-status-controller.ts';
import type { KObject } from '../../../internal/registry/schema/declaration.ts';

const schema = (level: string, conditions?: unknown[]): KObject => ({ apiVersion: 'flowcontrol.apiserver.k8s.io/v1beta3', kind: 'FlowSchema', metadata: { name: 's' }, spec: { priorityLevelConfiguration: { name: level } }, ...(conditions ? { status: { conditions } } : {}) });
const now = new Date('2026-01-02T03:04:05.678Z');

test('a schema naming a missing level gets Dangling True (NotFound), one naming an existing level Dangling False (Found)', () => {
  const dangling = withDanglingCondition(schema('gone'), new Set(['exempt']), now);
  assert.deepEqual((dangling?.['status'] as { conditions: unknown[] }).conditions, [{
    type: 'Dangling', status: 'True', reason: 'NotFound', lastTransitionTime: '2026-01-02T03:04:05Z',
    message: 'This FlowSchema references the PriorityLevelConfiguration object named "gone" but there is no such object',
  }]);
  const found = withDanglingCondition(schema('exempt'), new Set(['exempt']), now);
  assert.deepEqual((found?.['status'] as { conditions: { status: string; reason: string }[] }).conditions.map((c) => [c.status, c.reason]), [['False', 'Found']]);
});

test('a Dangling condition already as wanted is left alone, and other conditions are kept', () => {
  const current = { type: 'Dangling', status: 'False', reason: 'Found', message: 'This FlowSchema references the PriorityLevelConfiguration object named "exempt" and it exists', lastTransitionTime: '2020-01-01T00:00:00Z' };
  assert.equal(withDanglingCondition(schema('exempt', [current]), new Set(['exempt']), now), null);
  const other = { type: 'Other', status: 'True' };
  const changed = withDanglingCondition(schema('gone', [other, current]), new Set(['exempt']), now);
  const conditions = (changed?.['status'] as { conditions: { type: string; lastTransitionTime?: string }[] }).conditions;
  assert.deepEqual(conditions.map((c) => c.type), ['Other', 'Dangling']);
  assert.equal(conditions[1]?.lastTransitionTime, '2026-01-02T03:04:05Z', 'the status changed: the transition time moves');
});
