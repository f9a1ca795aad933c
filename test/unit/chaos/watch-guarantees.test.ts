import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { AcknowledgedWrite, LoggedWatchEvent, WatchLog, WatchSegment } from '../../chaos/checkers/history.ts';
import { acknowledgedWrites } from '../../chaos/checkers/history.ts';
import { checkWatchGuarantees, type WatchProperty } from '../../chaos/checkers/watch-guarantees.ts';

const ev = (rv: number, key = `k${rv}`, type: LoggedWatchEvent['type'] = 'ADDED'): LoggedWatchEvent => ({ type, key, resourceVersion: rv, value: `v${rv}` });
const bookmark = (rv: number): LoggedWatchEvent => ({ type: 'BOOKMARK', key: '', resourceVersion: rv });
const seg = (replica: string, from: number, events: LoggedWatchEvent[], afterRelist = false): WatchSegment => ({ replica, fromResourceVersion: from, events, ...(afterRelist ? { afterRelist } : {}) });
const log = (watcher: string, ...segments: WatchSegment[]): WatchLog => ({ watcher, segments });
const ack = (rv: number, key = `k${rv}`): AcknowledgedWrite => ({ key, type: 'ADDED', resourceVersion: rv, value: `v${rv}` });
const properties = (logs: WatchLog[], acknowledged: AcknowledgedWrite[] = []): WatchProperty[] => [...new Set(checkWatchGuarantees({ logs, acknowledged }).violations.map((v) => v.property))].sort();

test('complete, ordered logs on several replicas with a correct resume and bookmarks pass', () => {
  const logs = [
    log('w1', seg('r1', 0, [ev(1), ev(2), bookmark(2)]), seg('r2', 2, [ev(3), bookmark(5), ev(6)])),
    log('w2', seg('r3', 0, [ev(1), ev(2), ev(3), ev(6)])),
  ];
  const report = checkWatchGuarantees({ logs, acknowledged: [ack(1), ack(3), ack(6)], finalState: new Map([['k6', 6]]) });
  assert.deepEqual(report.violations, []);
  assert.equal(report.ok, true);
});

test('a gap in one watcher is a reliability violation naming the missing revision', () => {
  const report = checkWatchGuarantees({ logs: [log('w1', seg('r1', 0, [ev(1), ev(2), ev(3)])), log('w2', seg('r2', 0, [ev(1), ev(3)]))] });
  assert.deepEqual(report.violations.map((v) => [v.property, v.watcher, v.resourceVersion]), [['reliable', 'w2', 2]]);
  assert.match(report.violations[0]!.message, /gap: ADDED k2/);
});

test('a duplicate event is a uniqueness violation', () => {
  assert.deepEqual(properties([log('w', seg('r1', 0, [ev(1), ev(2), ev(2)]))]), ['unique']);
});

test('a resumed stream that replays an event already delivered is flagged', () => {
  assert.deepEqual(properties([log('w', seg('r1', 0, [ev(1), ev(2)]), seg('r2', 1, [ev(2), ev(3)]))]), ['resumable', 'unique']);
});

test('a reordered event is an ordering violation', () => {
  assert.deepEqual(properties([log('w', seg('r1', 0, [ev(1), ev(3), ev(2)]))]), ['ordered']);
});

test('replicas that disagree on a revision violate the identical guarantee', () => {
  const logs = [log('w1', seg('r1', 0, [ev(1), ev(2)])), log('w2', seg('r2', 0, [ev(1), { ...ev(2), value: 'other' }]))];
  assert.deepEqual(properties(logs), ['identical']);
});

test('two different events at one revision in one stream are an atomicity violation', () => {
  assert.ok(properties([log('w', seg('r1', 0, [ev(1), ev(2), ev(2, 'other')]))]).includes('atomic'));
});

test('a resume that skips the first event after its start version is flagged as resumable and reliable', () => {
  const logs = [log('w', seg('r1', 0, [ev(1)]), seg('r2', 1, [ev(3)])), log('full', seg('r3', 0, [ev(1), ev(2), ev(3)]))];
  assert.deepEqual(properties(logs), ['reliable', 'resumable']);
});

test('a resume from a version other than the last one received is flagged', () => {
  assert.deepEqual(properties([log('w', seg('r1', 0, [ev(1), bookmark(4)]), seg('r2', 1, []))]), ['resumable']);
});

test('after a relist (410) a gap before the new start version is legitimate', () => {
  const logs = [log('w', seg('r1', 0, [ev(1)]), seg('r2', 5, [ev(6)], true)), log('full', seg('r3', 0, [ev(1), ev(2), ev(3), ev(4), ev(5), ev(6)]))];
  assert.deepEqual(properties(logs), []);
});

test('bookmarks going backwards, or events at or below a bookmark, are flagged', () => {
  assert.deepEqual(properties([log('w', seg('r1', 0, [ev(1), bookmark(5), bookmark(4)]))]), ['bookmarkable']);
  assert.deepEqual(properties([log('w', seg('r1', 0, [ev(1), bookmark(5), ev(5)])), log('x', seg('r2', 0, [ev(1), ev(5)]))]), ['bookmarkable']);
});

test('an acknowledged write missing from every watch that covered its revision is lost', () => {
  const logs = [log('w', seg('r1', 0, [ev(1), ev(3)]))];
  const report = checkWatchGuarantees({ logs, acknowledged: [ack(1), ack(2), ack(3)] });
  assert.deepEqual(report.violations.map((v) => [v.property, v.resourceVersion]).sort(), [['durable', 2], ['reliable', 2]]);
});

test('an acknowledged write older than the final state of its key is lost', () => {
  const report = checkWatchGuarantees({ logs: [], acknowledged: [ack(7, 'a')], finalState: new Map([['a', 5]]) });
  assert.deepEqual(report.violations.map((v) => v.property), ['durable']);
});

test('acknowledged writes are extracted from a history', () => {
  const writes = acknowledgedWrites([
    { process: 'p', type: 'create', key: 'a', input: { value: 1 }, output: { resourceVersion: 3 }, invokeMs: 0, completeMs: 1, outcome: 'ok' },
    { process: 'p', type: 'cas-update', key: 'a', input: { value: 2, expectedResourceVersion: 3 }, invokeMs: 2, completeMs: 3, outcome: 'unknown' },
    { process: 'p', type: 'get', key: 'a', input: {}, output: { found: true, value: 1, resourceVersion: 3 }, invokeMs: 2, completeMs: 3, outcome: 'ok' },
  ]);
  assert.deepEqual(writes, [{ key: 'a', type: 'ADDED', resourceVersion: 3, value: 1 }]);
});
