import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { dealHand, flowHash } from '../../../internal/flowcontrol/shuffle-shard.ts';

describe('shuffle sharding', () => {
  it('deals handSize distinct queue indices, all in range', () => {
    for (let k = 0n; k < 2000n; k++) {
      const hash = BigInt.asUintN(64, k * 0x9e3779b97f4a7c15n);
      const hand = dealHand(hash, 64, 8);
      assert.equal(hand.length, 8);
      assert.equal(new Set(hand).size, 8);
      for (const card of hand) assert.ok(Number.isInteger(card) && card >= 0 && card < 64);
    }
  });

  it('deals the same hand for the same hash', () => {
    const hash = flowHash('workload-low', 'alice');
    assert.deepEqual(dealHand(hash, 128, 6), dealHand(hash, 128, 6));
  });

  it('deals the whole deck when the hand is the deck', () => {
    assert.deepEqual([...dealHand(12345n, 5, 5)].sort(), [0, 1, 2, 3, 4]);
  });

  it('hashes a flow deterministically, apart from other flows, within 64 bits', () => {
    const alice = flowHash('workload-low', 'alice');
    assert.equal(alice, flowHash('workload-low', 'alice'));
    assert.notEqual(alice, flowHash('workload-low', 'bob'));
    assert.notEqual(flowHash('ab', 'c'), flowHash('a', 'bc'));
    assert.ok(alice >= 0n && alice < 1n << 64n);
  });
});
