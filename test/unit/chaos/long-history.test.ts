// The checkers reach a verdict on a long history (`make chaos` first runs this with a million
// operations: an hour's chaos run is about 1.6 million; `make test` with 100,000, LONG_HISTORY_OPERATIONS
// sets it), and still find what is wrong in it: one stale read and one event a watcher missed are
// planted, and exactly those two are reported.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Operation, WatchLog } from '../../chaos/checkers/history.ts';
import { judge } from '../../chaos/verdict.ts';
import { syntheticRun } from './synthetic-run.ts';

/** Makes one consistent read after an acknowledged update return the version that update replaced. */
function plantStaleRead(history: Operation[]): number {
  const writtenAt = new Map<number, Operation>();
  for (const op of history) if (op.outcome === 'ok' && op.output?.resourceVersion !== undefined) writtenAt.set(op.output.resourceVersion, op);
  const middle = Math.floor(history.length / 2);
  for (let w = middle; w < history.length; w += 1) {
    const update = history[w] as Operation;
    const replaced = writtenAt.get(update.input.expectedResourceVersion ?? -1);
    if (update.type !== 'cas-update' || update.outcome !== 'ok' || replaced === undefined) continue;
    for (let g = w + 1; g < history.length; g += 1) {
      const read = history[g] as Operation;
      if (read.type !== 'get' || read.key !== update.key || read.invokeMs <= update.completeMs || read.output?.found !== true) continue;
      history[g] = { ...read, output: { found: true, value: replaced.input.value, resourceVersion: update.input.expectedResourceVersion as number } };
      return g;
    }
  }
  throw new Error('no read to plant a stale value in');
}

/** Drops one event from the middle of a stream of the log; returns its revision. */
function plantMissedEvent(log: WatchLog): number {
  const segment = log.segments[Math.floor(log.segments.length / 2)];
  assert.ok(segment !== undefined);
  const events = segment.events as WatchLog['segments'][number]['events'][number][];
  const index = Math.floor(events.length / 2);
  const [dropped] = events.splice(index, 1);
  assert.ok(dropped !== undefined && dropped.type !== 'BOOKMARK');
  return dropped.resourceVersion;
}

const operations = Number(process.env.LONG_HISTORY_OPERATIONS ?? 100_000);

test(`the checkers judge a ${operations}-operation history in one pass and find exactly the two planted faults`, { timeout: 600_000 }, (t) => {
  const run = syntheticRun({ operations, processes: 6, keys: 30, seed: 20261126, unknownEvery: 100 });
  assert.equal(run.history.length, operations);
  const staleRead = plantStaleRead(run.history);
  const roaming = run.watchLogs.find((l) => l.watcher === 'watch-roaming');
  assert.ok(roaming !== undefined);
  const missed = plantMissedEvent(roaming);

  const verdict = judge({ history: run.history, watchLogs: run.watchLogs, finalLists: run.finalLists });
  for (const c of verdict.checkers) t.diagnostic(`${c.checker}: ${c.status}; ${c.scope}; ${c.elapsedMs} ms`);

  assert.deepEqual(verdict.notes, [], 'every key decided within the search budget');
  const byChecker = new Map(verdict.checkers.map((c) => [c.checker, c]));
  assert.equal(byChecker.get('linearizability')?.violations, 1);
  assert.equal(byChecker.get('watch guarantees')?.violations, 1);
  assert.equal(byChecker.get('replica agreement')?.status, 'ok');
  assert.equal(byChecker.get('acknowledged writes kept')?.status, 'ok');
  assert.equal(verdict.violations.length, 2);
  assert.match(verdict.violations[0] ?? '', new RegExp(`#${staleRead} p\\d get `), 'the counterexample names the planted read');
  assert.match(verdict.violations[1] ?? '', new RegExp(`^watch reliable: watch-roaming@orch-\\d: gap: .* at revision ${missed} `));
});
