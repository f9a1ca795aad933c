import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MaxInFlight } from '../../../internal/flowcontrol/max-inflight.ts';

describe('max in-flight limit', () => {
  it('refuses past each kind\'s limit and admits again after a release', () => {
    const limit = new MaxInFlight(2, 1);
    const a = limit.tryAcquire(false);
    const b = limit.tryAcquire(false);
    assert.ok(a && b);
    assert.equal(limit.tryAcquire(false), null);
    const write = limit.tryAcquire(true);
    assert.ok(write);
    assert.equal(limit.tryAcquire(true), null);
    assert.deepEqual(limit.inflight(), { readOnly: 2, mutating: 1 });
    a();
    a(); // a second release frees nothing more
    assert.deepEqual(limit.inflight(), { readOnly: 1, mutating: 1 });
    assert.ok(limit.tryAcquire(false));
    assert.equal(limit.tryAcquire(false), null);
  });

  it('treats a limit of 0 as no limit', () => {
    const limit = new MaxInFlight(0, 0);
    for (let i = 0; i < 1000; i++) assert.ok(limit.tryAcquire(i % 2 === 0));
    assert.deepEqual(limit.inflight(), { readOnly: 500, mutating: 500 });
  });
});
