// Long work done a piece at a time shares the event loop: one waiting piece per iteration, in the
// order asked, however many pieces wait, so I/O is polled between any two of them.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fairTurn } from '../../../internal/registry/generic/fair-turns.ts';

test('pieces of several long tasks run one per event-loop iteration, in the order they asked', async () => {
  let iteration = 0;
  let counting = true;
  // Counts iterations from the check phase as the pump does (an immediate scheduled from an immediate runs in the next iteration).
  const tick = (): void => {
    iteration++;
    if (counting) setImmediate(tick);
  };
  setImmediate(tick);
  const ran: { task: number; piece: number; iteration: number }[] = [];
  const task = async (id: number): Promise<void> => {
    for (let piece = 0; piece < 4; piece++) {
      await fairTurn();
      ran.push({ task: id, piece, iteration });
    }
  };
  await Promise.all([task(0), task(1), task(2)]);
  counting = false;
  assert.equal(ran.length, 12);
  assert.deepEqual(ran.map((r) => r.task), [0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2], 'round robin in the order asked');
  for (let i = 1; i < ran.length; i++) assert.ok(ran[i]!.iteration > ran[i - 1]!.iteration, `piece ${i} ran in the same iteration as the one before: ${JSON.stringify(ran)}`);
});

test('a timer that falls due during a piece fires before the next piece, not after all of them', async () => {
  const order: string[] = [];
  let timer: Promise<void> | undefined;
  const busy = (ms: number): void => {
    const until = performance.now() + ms;
    while (performance.now() < until) { /* a page's CPU */ }
  };
  await Promise.all([0, 1, 2, 3, 4, 5].map(async (i) => {
    await fairTurn();
    if (i === 0) timer = new Promise<void>((resolve) => setTimeout(() => {
      order.push('timer');
      resolve();
    }, 1));
    busy(3);
    order.push(`piece ${i}`);
  }));
  await timer;
  assert.equal(order.indexOf('timer'), 1, order.join(', '));
});
