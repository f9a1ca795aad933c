import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { QueueSet, type Admitted } from '../../../internal/flowcontrol/queue-set.ts';
import { dealHand } from '../../../internal/flowcontrol/shuffle-shard.ts';

const clock = { t: 0, now(): number { return this.t; } };
const queuing = { queues: 64, handSize: 8, queueLengthLimit: 50 };
const flood = 0x1234_5678_9abc_def0n;
/** A flow whose hand has a queue the flooding flow's hand has not. */
const quiet = (() => {
  const flooded = new Set(dealHand(flood, queuing.queues, queuing.handSize));
  for (let h = 1n; ; h++) if (dealHand(h, queuing.queues, queuing.handSize).some((q) => !flooded.has(q))) return h;
})();
const settled = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('queue set', () => {
  it('dispatches at once while seats are free', async () => {
    const set = new QueueSet({ concurrencyLimit: 2, queuing }, clock);
    const a = await set.admit({ flowHash: flood, seats: 1, waitLimitMs: 1000 });
    const b = await set.admit({ flowHash: quiet, seats: 1, waitLimitMs: 1000 });
    assert.equal(a.outcome, 'dispatched');
    assert.equal(b.outcome, 'dispatched');
    assert.equal(set.stats().executingSeats, 2);
  });

  it('queues when full and dispatches in order as seats are released', async () => {
    const set = new QueueSet({ concurrencyLimit: 1, queuing: { queues: 1, handSize: 1, queueLengthLimit: 10 } }, clock);
    const first = (await set.admit({ flowHash: flood, seats: 1, waitLimitMs: 1000 })) as Admitted;
    const order: number[] = [];
    const waiting = [1, 2, 3].map((n) => set.admit({ flowHash: flood, seats: 1, waitLimitMs: 60_000 }).then((o) => (order.push(n), o as Admitted)));
    await settled();
    assert.equal(set.stats().waitingRequests, 3);
    first.release();
    first.release(); // once only: frees one seat
    await settled();
    assert.deepEqual(order, [1]);
    for (const next of waiting) (await next).release();
    assert.deepEqual(order, [1, 2, 3]);
    assert.equal(set.stats().dispatched, 4);
  });

  it('gives a second flow its turn within a few releases of a flooding flow', async () => {
    const set = new QueueSet({ concurrencyLimit: 1, queuing }, clock);
    const running: Admitted[] = [(await set.admit({ flowHash: flood, seats: 1, waitLimitMs: 60_000 })) as Admitted];
    for (let i = 0; i < 100; i++) void set.admit({ flowHash: flood, seats: 1, waitLimitMs: 60_000 }).then((o) => o.outcome === 'dispatched' && running.push(o));
    let quietDispatched = false;
    void set.admit({ flowHash: quiet, seats: 1, waitLimitMs: 60_000 }).then((o) => { quietDispatched = o.outcome === 'dispatched'; if (o.outcome === 'dispatched') running.push(o); });
    await settled();
    let releases = 0;
    while (!quietDispatched && releases < 20) {
      running.shift()?.release();
      releases++;
      await settled();
    }
    assert.ok(quietDispatched, 'the quiet flow was dispatched');
    assert.ok(releases <= 10, `dispatched after ${releases} releases`);
  });

  it('shares seats by the seat-seconds flows really use: a flow of long wide requests does not hold back one of short narrow ones', async () => {
    // 20 seats; the flood's requests take 10 seats for 2 s, the quiet flow's 1 seat for 10 ms.
    const set = new QueueSet({ concurrencyLimit: 20, queuing }, clock);
    const longRunning: { admitted: Admitted; until: number }[] = [];
    const quietWaits: number[] = [];
    let quietRunning: { admitted: Admitted; until: number } | undefined;
    const steps = 6_000;
    for (let step = 0; step < steps; step++) {
      clock.t += 10;
      // The flood keeps 10 requests asked for; the quiet flow one at a time.
      for (let asked = 0; longRunning.length + set.stats().waitingRequests < 12 && asked < 12; asked++) {
        void set.admit({ flowHash: flood, seats: 10, waitLimitMs: 600_000 }).then((o) => o.outcome === 'dispatched' && longRunning.push({ admitted: o, until: clock.t + 2_000 }));
        await settled();
      }
      if (quietRunning === undefined) {
        const asked = clock.t;
        void set.admit({ flowHash: quiet, seats: 1, waitLimitMs: 600_000 }).then((o) => {
          if (o.outcome !== 'dispatched') return;
          // The steady state: after the flood's first round through its queues.
          if (step >= steps / 2) quietWaits.push(clock.t - asked);
          quietRunning = { admitted: o, until: clock.t + 10 };
        });
        await settled();
      }
      if (quietRunning !== undefined && quietRunning.until <= clock.t) {
        const done = quietRunning;
        quietRunning = undefined;
        done.admitted.release();
      }
      for (const r of longRunning.filter((r) => r.until <= clock.t)) {
        longRunning.splice(longRunning.indexOf(r), 1);
        r.admitted.release();
      }
      await settled();
    }
    const sorted = [...quietWaits].sort((a, b) => a - b);
    const p90 = sorted[Math.floor(sorted.length * 0.9)] ?? Infinity;
    // A wide request ends every 1 s on average: the quiet flow waits for at most the next one, and mostly not at all.
    assert.ok(quietWaits.length > 100, `the quiet flow ran ${quietWaits.length} requests`);
    assert.ok(p90 <= 1_000, `quiet flow waits p90 ${p90} ms`);
  });

  it('refuses with queue-full past the queue length limit', async () => {
    const set = new QueueSet({ concurrencyLimit: 1, queuing: { queues: 1, handSize: 1, queueLengthLimit: 2 } }, clock);
    await set.admit({ flowHash: flood, seats: 1, waitLimitMs: 1000 });
    void set.admit({ flowHash: flood, seats: 1, waitLimitMs: 60_000 });
    void set.admit({ flowHash: flood, seats: 1, waitLimitMs: 60_000 });
    const refused = await set.admit({ flowHash: flood, seats: 1, waitLimitMs: 60_000 });
    assert.deepEqual([refused.outcome, refused.outcome === 'rejected' && refused.reason], ['rejected', 'queue-full']);
    assert.equal(set.stats().rejected['queue-full'], 1);
  });

  it('refuses with concurrency-limit when the level has no queues', async () => {
    const set = new QueueSet({ concurrencyLimit: 1, queuing: null }, clock);
    assert.equal((await set.admit({ flowHash: flood, seats: 1, waitLimitMs: 1000 })).outcome, 'dispatched');
    const refused = await set.admit({ flowHash: flood, seats: 1, waitLimitMs: 1000 });
    assert.equal(refused.outcome === 'rejected' && refused.reason, 'concurrency-limit');
  });

  it('removes a waiter that times out or whose client leaves, and counts it', async (t) => {
    t.mock.timers.enable({ apis: ['setTimeout'] });
    const set = new QueueSet({ concurrencyLimit: 1, queuing }, clock);
    await set.admit({ flowHash: flood, seats: 1, waitLimitMs: 1000 });
    const timedOut = set.admit({ flowHash: flood, seats: 1, waitLimitMs: 1000 });
    const abort = new AbortController();
    const cancelled = set.admit({ flowHash: quiet, seats: 1, waitLimitMs: 60_000, signal: abort.signal });
    assert.equal(set.stats().waitingRequests, 2);
    t.mock.timers.tick(1000);
    abort.abort();
    const [a, b] = await Promise.all([timedOut, cancelled]);
    assert.equal(a.outcome === 'rejected' && a.reason, 'time-out');
    assert.equal(b.outcome === 'rejected' && b.reason, 'cancelled');
    const stats = set.stats();
    assert.equal(stats.waitingRequests, 0);
    assert.deepEqual([stats.rejected['time-out'], stats.rejected.cancelled], [1, 1]);
  });

  it('clamps a request wider than the level to the level\'s seats', async () => {
    const set = new QueueSet({ concurrencyLimit: 3, queuing }, clock);
    const wide = await set.admit({ flowHash: flood, seats: 10, waitLimitMs: 1000 });
    assert.equal(wide.outcome, 'dispatched');
    assert.equal(set.stats().executingSeats, 3);
  });

  it('applies a new limit live without cancelling running requests', async () => {
    const set = new QueueSet({ concurrencyLimit: 2, queuing }, clock);
    const a = (await set.admit({ flowHash: flood, seats: 1, waitLimitMs: 1000 })) as Admitted;
    await set.admit({ flowHash: flood, seats: 1, waitLimitMs: 1000 });
    set.setConfig({ concurrencyLimit: 1, queuing: { ...queuing, queues: 4, handSize: 2 } });
    assert.equal(set.stats().executingRequests, 2);
    const waiter = set.admit({ flowHash: quiet, seats: 1, waitLimitMs: 60_000 });
    a.release();
    await settled();
    assert.equal(set.stats().waitingRequests, 1, 'still over the new limit');
    set.setConfig({ concurrencyLimit: 2, queuing });
    assert.equal((await waiter).outcome, 'dispatched');
  });
});

describe('queue set limits lowered under a waiting request', () => {
  it('dispatches a waiting request wider than the new limit with the seats there are', async () => {
    const set = new QueueSet({ concurrencyLimit: 4, queuing }, clock);
    const running = await set.admit({ flowHash: flood, seats: 4, waitLimitMs: 60_000 });
    const wide = set.admit({ flowHash: quiet, seats: 4, waitLimitMs: 60_000 });
    set.setConfig({ concurrencyLimit: 2, queuing });
    (running as Admitted).release();
    const outcome = await wide;
    if (outcome.outcome !== 'dispatched') throw new Error(`expected dispatched, got ${outcome.reason}`);
    if (set.stats().executingSeats !== 2) throw new Error(`took ${set.stats().executingSeats} seats`);
    outcome.release();
  });
});
