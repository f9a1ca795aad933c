import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Operation, OpInput, OpOutput, Outcome, OpType } from '../../chaos/checkers/history.ts';
import { checkLinearizability } from '../../chaos/checkers/linearizability.ts';

function op(process: string, type: OpType, key: string, invokeMs: number, completeMs: number, outcome: Outcome, input: OpInput = {}, output?: OpOutput): Operation {
  return { process, type, key, invokeMs, completeMs, outcome, input, ...(output === undefined ? {} : { output }) };
}
const create = (p: string, t0: number, t1: number, value: unknown, rv: number | undefined, outcome: Outcome = 'ok') => op(p, 'create', 'k', t0, t1, outcome, { value }, rv === undefined ? undefined : { resourceVersion: rv });
const cas = (p: string, t0: number, t1: number, value: unknown, expected: number, rv: number | undefined, outcome: Outcome = 'ok', code?: number) =>
  op(p, 'cas-update', 'k', t0, t1, outcome, { value, expectedResourceVersion: expected }, rv !== undefined ? { resourceVersion: rv } : code !== undefined ? { code } : undefined);
const get = (p: string, t0: number, t1: number, value?: unknown, rv?: number) => op(p, 'get', 'k', t0, t1, 'ok', {}, value === undefined ? { found: false } : { found: true, value, resourceVersion: rv as number });
const del = (p: string, t0: number, t1: number, rv: number) => op(p, 'delete', 'k', t0, t1, 'ok', {}, { resourceVersion: rv });

test('a sequential history of create, compare-and-swap, read and delete is linearizable', () => {
  const history = [create('a', 0, 1, 'v1', 1), get('b', 2, 3, 'v1', 1), cas('a', 4, 5, 'v2', 1, 2), get('b', 6, 7, 'v2', 2), del('a', 8, 9, 3), get('b', 10, 11)];
  assert.equal(checkLinearizability(history).status, 'ok');
});

test('a read concurrent with a write may see either value', () => {
  const history = [create('a', 0, 1, 'v1', 1), cas('a', 2, 10, 'v2', 1, 2), get('b', 3, 4, 'v2', 2), get('c', 5, 6, 'v2', 2), get('d', 11, 12, 'v2', 2)];
  assert.equal(checkLinearizability(history).status, 'ok');
  const flipFlop = [create('a', 0, 1, 'v1', 1), cas('a', 2, 10, 'v2', 1, 2), get('b', 3, 4, 'v2', 2), get('c', 5, 6, 'v1', 1)];
  assert.equal(checkLinearizability(flipFlop).status, 'violation', 'once a read saw v2, a later read cannot see v1');
});

test('a stale read after a write completed is a violation with a readable counterexample', () => {
  const history = [create('a', 0, 1, 'v1', 1), cas('a', 2, 3, 'v2', 1, 2), get('b', 4, 5, 'v1', 1)];
  const report = checkLinearizability(history);
  assert.equal(report.status, 'violation');
  const verdict = report.violations[0]!;
  assert.equal(verdict.blockingOperation, 2);
  assert.deepEqual(verdict.linearizedPrefix, [0, 1]);
  assert.match(verdict.explanation ?? '', /#2 b get k -> "v1" rv 1 \[4, 5\]/);
  assert.match(verdict.explanation ?? '', /ending in state: value .* at rv 2/);
});

test('consistent reads served locally without ReadIndex: a lagging follower answering after an acknowledged write is flagged', () => {
  // Planted bug: replica r3 lags; it serves a "Most Recent" get and list from its own state.
  const history = [
    create('writer', 0, 10, { n: 1 }, 100),
    cas('writer', 20, 30, { n: 2 }, 100, 101),
    op('reader-r3', 'get', 'k', 31, 33, 'ok', {}, { found: true, value: { n: 1 }, resourceVersion: 100 }),
    op('lister-r3', 'list', '', 34, 36, 'ok', {}, { resourceVersion: 100, items: [{ key: 'k', value: { n: 1 }, resourceVersion: 100 }] }),
  ];
  const report = checkLinearizability(history);
  assert.equal(report.status, 'violation');
  assert.equal(report.violations[0]!.blockingOperation, 2);
  const withoutGet = history.filter((o) => o.type !== 'get');
  assert.equal(checkLinearizability(withoutGet).status, 'violation', 'the stale list alone is caught too');
});

test('two compare-and-swap winners on the same resourceVersion are a violation', () => {
  const history = [create('a', 0, 1, 'v1', 1), cas('a', 2, 5, 'va', 1, 2), cas('b', 2, 5, 'vb', 1, 3)];
  assert.equal(checkLinearizability(history).status, 'violation');
});

test('a lost update (acknowledged write overwritten by nothing) is a violation', () => {
  const history = [create('a', 0, 1, 'v1', 1), cas('a', 2, 3, 'v2', 1, 2), cas('b', 4, 5, 'v3', 2, 3), get('c', 6, 7, 'v2', 2)];
  assert.equal(checkLinearizability(history).status, 'violation');
});

test('a read of a value never written is a violation', () => {
  assert.equal(checkLinearizability([create('a', 0, 1, 'v1', 1), get('b', 2, 3, 'ghost', 7)]).status, 'violation');
});

test('an unknown-outcome write may take effect at any time after its call, or never', () => {
  const took = [create('a', 0, 1, 'v1', 1), cas('a', 2, 3, 'v2', 1, undefined, 'unknown'), get('b', 50, 51, 'v2', 9), cas('b', 52, 53, 'v3', 9, 10)];
  assert.equal(checkLinearizability(took).status, 'ok');
  const never = [create('a', 0, 1, 'v1', 1), cas('a', 2, 3, 'v2', 1, undefined, 'unknown'), get('b', 50, 51, 'v1', 1)];
  assert.equal(checkLinearizability(never).status, 'ok');
  const early = [create('a', 0, 1, 'v1', 1), get('b', 2, 3, 'v2', 2), cas('a', 4, 5, 'v2', 1, undefined, 'unknown')];
  assert.equal(checkLinearizability(early).status, 'violation', 'it cannot take effect before it was invoked');
});

test('interchangeable unknown creates are each available once the one before them took effect', () => {
  // Two creates of unknown outcome whose values no read returned: the key appears (409), is
  // deleted (an unknown delete, then a 404), and appears again, which only the second create explains.
  const exists = (p: string, t0: number) => op(p, 'create', 'k', t0, t0 + 1, 'fail', { value: `x${t0}` }, { code: 409 });
  const history = [
    create('a', 0, Infinity, 'u1', undefined, 'unknown'),
    create('b', 1, Infinity, 'u2', undefined, 'unknown'),
    get('c', 2, 3),
    exists('c', 4),
    op('d', 'delete', 'k', 6, 7, 'unknown', {}),
    get('c', 8, 9),
    exists('c', 10),
  ];
  assert.equal(checkLinearizability(history).status, 'ok');
  assert.equal(checkLinearizability(history.filter((o) => o.process !== 'b')).status, 'violation', 'one unknown create cannot take effect twice');
});

test('refused writes carry information: 409 on create means the key existed', () => {
  const conflict = op('b', 'create', 'k', 2, 3, 'fail', { value: 'x' }, { code: 409 });
  assert.equal(checkLinearizability([create('a', 0, 1, 'v1', 1), conflict]).status, 'ok');
  assert.equal(checkLinearizability([conflict]).status, 'violation');
  const unavailable = op('b', 'create', 'k', 2, 3, 'fail', { value: 'x' }, { code: 503 });
  assert.equal(checkLinearizability([unavailable, get('c', 4, 5)]).status, 'ok');
});

test('keys are checked independently', () => {
  const other = op('z', 'create', 'other', 0, 1, 'ok', { value: 'o' }, { resourceVersion: 2 });
  const report = checkLinearizability([create('a', 0, 1, 'v1', 1), other, get('b', 2, 3, 'ghost', 7)]);
  assert.deepEqual(report.keys.map((k) => [k.key, k.status]), [['k', 'violation'], ['other', 'ok']]);
});

/**
 * A deterministic linearizable history: a real register, each operation's linearization point
 * inside its interval (`spreadMs` either side), a share of writes with unknown outcome of which
 * half took effect.
 */
function generateHistory(count: number, seed: number, spreadMs = 25, unknownRate = 0.02): Operation[] {
  let s = seed;
  const random = (): number => ((s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 2 ** 32);
  let current: { value: string; rv: number } | undefined;
  let rv = 0;
  const history: Operation[] = [];
  for (let i = 0; i < count; i += 1) {
    const invokeMs = i * 10 - Math.floor(random() * spreadMs);
    const completeMs = i * 10 + Math.floor(random() * spreadMs);
    const p = `p${i % 6}`;
    const roll = random();
    const unknown = random() < unknownRate;
    const applied = !unknown || random() < 0.5;
    if (current === undefined) {
      rv += 1;
      history.push(create(p, invokeMs, completeMs, `v${i}`, unknown ? undefined : rv, unknown ? 'unknown' : 'ok'));
      if (applied) current = { value: `v${i}`, rv };
    } else if (roll < 0.45) {
      history.push(get(p, invokeMs, completeMs, current.value, current.rv));
    } else if (roll < 0.8) {
      rv += 1;
      history.push(cas(p, invokeMs, completeMs, `v${i}`, current.rv, unknown ? undefined : rv, unknown ? 'unknown' : 'ok'));
      if (applied) current = { value: `v${i}`, rv };
    } else if (roll < 0.95) {
      history.push(cas(p, invokeMs, completeMs, `x${i}`, current.rv - 1, undefined, 'fail', 409));
    } else {
      rv += 1;
      history.push(del(p, invokeMs, completeMs, rv));
      current = undefined;
    }
  }
  return history;
}

test('thousands of concurrent operations on one key are checked within the search budget', () => {
  const history = generateHistory(3000, 42);
  const report = checkLinearizability(history);
  assert.equal(report.status, 'ok');
  assert.equal(report.keys[0]!.operations, 3000);
  const broken = [...history, get('late', 40_000, 40_001, 'ghost', 1)];
  assert.equal(checkLinearizability(broken).status, 'violation');
});

test('many unknown-outcome writes under wide concurrency stay within the search budget', () => {
  const history = generateHistory(3000, 11, 200, 0.05);
  const report = checkLinearizability(history);
  assert.equal(report.status, 'ok');
  assert.equal(checkLinearizability(history, { deleteReportsDeletionRevision: true }).status, 'ok');
});

test('a delete that reports its revision orders it among the writes when trusted', () => {
  const history = [create('a', 0, 1, 'v1', 1), del('a', 2, 3, 2), create('b', 4, 5, 'v2', 3), del('c', 6, 7, 3)];
  assert.equal(checkLinearizability(history).status, 'ok', 'untrusted delete revisions are ignored');
  assert.equal(checkLinearizability(history, { deleteReportsDeletionRevision: true }).status, 'violation', 'a delete cannot reuse revision 3');
});

test('a search that exceeds its budget reports unknown, not ok', () => {
  const report = checkLinearizability(generateHistory(500, 7), { stepsMaxPerKey: 100 });
  assert.equal(report.status, 'unknown');
  assert.match(report.keys[0]!.explanation ?? '', /budget/);
});
