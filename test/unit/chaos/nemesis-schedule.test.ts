import { test } from 'node:test';
import assert from 'node:assert/strict';
import { faultSchedule } from '../../chaos/nemesis.ts';

test('the same seed gives the same fault schedule, and a different seed a different one', () => {
  const a = faultSchedule(42, 3, 120_000);
  assert.deepEqual(faultSchedule(42, 3, 120_000), a);
  assert.notDeepEqual(faultSchedule(43, 3, 120_000), a);
});

test('a fault schedule fills the duration with bounded faults on existing replicas, leader kills included', () => {
  const schedule = faultSchedule(7, 3, 600_000);
  const planned = schedule.reduce((sum, f) => sum + f.durationMs + f.gapMs, 0);
  assert.ok(planned >= 600_000);
  assert.ok(schedule.every((f) => f.replicaIndex >= 0 && f.replicaIndex < 3 && f.durationMs <= 4_000 && f.gapMs <= 3_000));
  assert.ok(schedule.some((f) => f.kind === 'kill-leader'));
  assert.ok(schedule.some((f) => f.kind === 'isolate-leader'));
});
