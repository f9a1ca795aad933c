// A linearizability checker in the style of Wing & Gong with Lowe's memoization, as porcupine
// does it: per key (P-compositionality), a depth-first search over the order of call and return
// events, linearizing a pending operation when the model allows it and backtracking when an
// operation returns before it could be linearized. A (set of linearized operations, state) pair
// seen before is not explored again. Operations with an unknown outcome return at infinity: they
// may be linearized at any point after their call, or never.
import type { Operation } from './history.ts';
import { absent, describeState, isDead, partitionByKey, stateKey, step, unobservedValue, type KeyOperation, type PartitionOptions, type RegisterState } from './register-model.ts';

/** Verdict for one key. `unknown` means the search budget ran out: neither proof nor violation. */
export interface KeyVerdict {
  readonly key: string;
  readonly status: 'ok' | 'violation' | 'unknown';
  readonly operations: number;
  readonly steps: number;
  /** For a violation: the longest linearizable prefix found (history indexes, in linearization order). */
  readonly linearizedPrefix?: readonly number[];
  /** For a violation: the operation that returned before any order could place it (history index). */
  readonly blockingOperation?: number;
  /** A readable explanation of the violation or of the budget that ran out. */
  readonly explanation?: string;
}

/** Verdict for a whole history: a violation on any key wins over unknown, unknown over ok. */
export interface LinearizabilityReport {
  readonly status: 'ok' | 'violation' | 'unknown';
  readonly keys: readonly KeyVerdict[];
  readonly violations: readonly KeyVerdict[];
}

/** Options of the checker. */
export interface LinearizabilityOptions extends PartitionOptions {
  /** Search steps allowed per key before the verdict is `unknown` (default 10,000,000: seconds, not minutes). */
  readonly stepsMaxPerKey?: number;
}

/** Checks a history against the per-key register model. Pure; never throws for a bad history. */
export function checkLinearizability(history: readonly Operation[], options: LinearizabilityOptions = {}): LinearizabilityReport {
  const keys = [...partitionByKey(history, options)].map(([key, ops]) => checkKey(key, ops, options.stepsMaxPerKey ?? 10_000_000));
  const violations = keys.filter((k) => k.status === 'violation');
  const status = violations.length > 0 ? 'violation' : keys.some((k) => k.status === 'unknown') ? 'unknown' : 'ok';
  return { status, keys, violations };
}

interface Entry {
  readonly op: number;
  readonly isCall: boolean;
  readonly timeMs: number;
  match: Entry | undefined;
  prev: Entry | undefined;
  next: Entry | undefined;
}

/** Builds the doubly linked list of call/return events: by time, calls before returns at equal times. */
function buildEntries(ops: readonly KeyOperation[]): Entry {
  const events: Entry[] = [];
  ops.forEach((op, i) => {
    const call: Entry = { op: i, isCall: true, timeMs: op.invokeMs, match: undefined, prev: undefined, next: undefined };
    const ret: Entry = { op: i, isCall: false, timeMs: op.completeMs, match: undefined, prev: undefined, next: undefined };
    call.match = ret;
    events.push(call, ret);
  });
  events.sort((a, b) => a.timeMs - b.timeMs || Number(a.isCall ? 0 : 1) - Number(b.isCall ? 0 : 1) || a.op - b.op);
  const head: Entry = { op: -1, isCall: false, timeMs: -Infinity, match: undefined, prev: undefined, next: undefined };
  let last = head;
  for (const event of events) {
    last.next = event;
    event.prev = last;
    last = event;
  }
  return head;
}

function lift(call: Entry): void {
  const ret = call.match as Entry;
  (call.prev as Entry).next = call.next;
  if (call.next !== undefined) call.next.prev = call.prev;
  (ret.prev as Entry).next = ret.next;
  if (ret.next !== undefined) ret.next.prev = ret.prev;
}

function unlift(call: Entry): void {
  const ret = call.match as Entry;
  (ret.prev as Entry).next = ret;
  if (ret.next !== undefined) ret.next.prev = ret;
  (call.prev as Entry).next = call;
  if (call.next !== undefined) call.next.prev = call;
}

/**
 * Zobrist hashing of the linearized set: two 32-bit words per operation, XORed in and out, so the
 * memo key costs O(1) per step. A collision (odds ~ states^2 / 2^64) could only hide a branch.
 */
function zobrist(count: number): Uint32Array {
  const table = new Uint32Array(count * 2);
  let seed = 0x9e3779b9;
  for (let i = 0; i < table.length; i += 1) {
    seed = (seed + 0x6d2b79f5) >>> 0;
    let t = seed;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    table[i] = (t ^ (t >>> 14)) >>> 0;
  }
  return table;
}

/**
 * The search. Reductions beyond porcupine:
 *  - An operation that leaves the state unchanged (a matching read, a refused write) and is legal
 *    now can always be linearized now (moving it first breaks no real-time order). So such
 *    operations are placed before any write is tried, and backtracking pops straight past them.
 *  - Revisions are handed out in linearization order, so acknowledged writes (whose revision is
 *    known) are linearized in revision order: only the lowest unplaced one is ever a candidate, and
 *    its revision bounds the unobserved revision of any unknown write placed before it.
 *  - Unknown-outcome writes with the same effect (same kind and precondition, a value no read
 *    returned) are interchangeable: only the earliest pending one of such a group is tried.
 *  - An unknown-outcome compare-and-swap whose version is behind can never apply again on this
 *    path: it is unlinked (relinked when the search backtracks past that point), so scans skip it.
 */
class Search {
  private readonly head: Entry;
  private readonly table: Uint32Array;
  private readonly seen = new Set<string>();
  private readonly calls: Array<{ entry: Entry; state: RegisterState; pure: boolean; dead: Entry[] }> = [];
  private readonly rootDead: Entry[] = [];
  private hash1 = 0;
  private hash2 = 0;
  private state: RegisterState = absent;
  private entry: Entry | undefined;
  /** In the pure phase only state-preserving operations are placed. */
  private purePhase = true;
  private best: { prefix: number[]; blocking: number; state: RegisterState } | undefined;
  /** Revisions of acknowledged writes, ascending; the first `placedKnown` are linearized. */
  private readonly knownRevisions: number[];
  private placedKnown = 0;
  /** For each unknown write, the previous interchangeable one (by call order), or -1. */
  private readonly twinBefore: Int32Array;
  /** 1 while an operation is unlinked (linearized or dead). */
  private readonly out: Uint8Array;
  steps = 0;

  constructor(private readonly ops: readonly KeyOperation[]) {
    this.knownRevisions = ops.filter(knownRevision).map((op) => op.outputResourceVersion as number).sort((a, b) => a - b);
    this.head = buildEntries(ops);
    this.table = zobrist(ops.length);
    this.twinBefore = interchangeablePredecessors(ops);
    this.out = new Uint8Array(ops.length);
    this.entry = this.head.next;
  }

  /** Runs until a verdict: true linearizable, false not, undefined when `stepsMax` ran out. */
  run(stepsMax: number): boolean | undefined {
    while (this.entry !== undefined) {
      this.steps += 1;
      if (this.steps > stepsMax) return undefined;
      const entry = this.entry;
      if (entry.isCall) {
        if (!this.tryCall(entry)) return false;
        continue;
      }
      // A return: every operation left has an unknown outcome, or one returned before being placed.
      if (entry.timeMs === Infinity) return true;
      if (this.purePhase) {
        this.purePhase = false;
        this.entry = this.head.next;
        continue;
      }
      if (this.best === undefined || this.calls.length >= this.best.prefix.length) this.best = { prefix: this.calls.map((c) => c.entry.op), blocking: entry.op, state: this.state };
      if (!this.backtrack()) return false;
    }
    return true;
  }

  /** The longest linearizable prefix seen and the operation that blocked it. */
  get counterexample(): { prefix: number[]; blocking: number; state: RegisterState } {
    return this.best ?? { prefix: [], blocking: 0, state: absent };
  }

  /** Tries to linearize the call at the cursor; false when the search is exhausted. */
  private tryCall(entry: Entry): boolean {
    const op = this.ops[entry.op] as KeyOperation;
    const twin = this.twinBefore[entry.op] as number;
    if (twin >= 0 && this.out[twin] === 0) {
      this.entry = entry.next;
      return true;
    }
    const ceiling = this.knownRevisions[this.placedKnown] ?? Infinity;
    const known = knownRevision(op);
    const next = known && op.outputResourceVersion !== ceiling ? undefined : step(this.state, op, ceiling);
    const pure = next === this.state;
    if (next === undefined || (this.purePhase && !pure)) {
      if (next === undefined && isDead(this.state, op)) {
        this.lift(entry);
        (this.calls.at(-1)?.dead ?? this.rootDead).push(entry);
      }
      this.entry = entry.next;
      return true;
    }
    const h1 = this.hash1 ^ (this.table[entry.op * 2] as number);
    const h2 = this.hash2 ^ (this.table[entry.op * 2 + 1] as number);
    const memo = `${h1}:${h2}:${stateKey(next)}`;
    if (!this.seen.has(memo)) {
      this.seen.add(memo);
      this.calls.push({ entry, state: this.state, pure, dead: [] });
      [this.hash1, this.hash2, this.state] = [h1, h2, next];
      this.lift(entry);
      if (known) this.placedKnown += 1;
      this.entry = this.head.next;
      this.purePhase = true;
      return true;
    }
    if (!pure) {
      this.entry = entry.next;
      return true;
    }
    return this.backtrack();
  }

  private lift(entry: Entry): void {
    lift(entry);
    this.out[entry.op] = 1;
  }

  private unlift(entry: Entry): void {
    unlift(entry);
    this.out[entry.op] = 0;
  }

  /** Undoes linearized operations until one worth leaving pending; false when none is left. */
  private backtrack(): boolean {
    for (let top = this.calls.pop(); top !== undefined; top = this.calls.pop()) {
      for (let i = top.dead.length - 1; i >= 0; i -= 1) this.unlift(top.dead[i] as Entry);
      this.hash1 ^= this.table[top.entry.op * 2] as number;
      this.hash2 ^= this.table[top.entry.op * 2 + 1] as number;
      this.state = top.state;
      this.unlift(top.entry);
      if (knownRevision(this.ops[top.entry.op] as KeyOperation)) this.placedKnown -= 1;
      this.entry = top.entry.next;
      this.purePhase = false;
      if (!top.pure) return true;
    }
    return false;
  }
}

function interchangeablePredecessors(ops: readonly KeyOperation[]): Int32Array {
  const twins = new Int32Array(ops.length).fill(-1);
  const lastOfGroup = new Map<string, number>();
  const order = ops.map((_, i) => i).sort((a, b) => (ops[a] as KeyOperation).invokeMs - (ops[b] as KeyOperation).invokeMs || a - b);
  for (const i of order) {
    const op = ops[i] as KeyOperation;
    if (op.outcome !== 'unknown' || (op.value !== undefined && op.value !== unobservedValue)) continue;
    const group = `${op.kind}|${op.expectedResourceVersion ?? ''}|${op.value ?? ''}`;
    twins[i] = lastOfGroup.get(group) ?? -1;
    lastOfGroup.set(group, i);
  }
  return twins;
}

/** An acknowledged write whose revision the server reported (deletes only when trusted, see PartitionOptions). */
function knownRevision(op: KeyOperation): boolean {
  return op.outcome === 'ok' && op.kind !== 'read' && op.outputResourceVersion !== undefined;
}

function checkKey(key: string, ops: readonly KeyOperation[], stepsMax: number): KeyVerdict {
  const search = new Search(ops);
  const verdict = search.run(stepsMax);
  if (verdict === undefined) return { key, status: 'unknown', operations: ops.length, steps: search.steps, explanation: `search budget of ${stepsMax} steps exhausted` };
  if (verdict) return { key, status: 'ok', operations: ops.length, steps: search.steps };
  return violation(key, ops, search.steps, search.counterexample);
}

function violation(key: string, ops: readonly KeyOperation[], steps: number, best: { prefix: number[]; blocking: number; state: RegisterState }): KeyVerdict {
  const blocking = ops[best.blocking] as KeyOperation;
  const placed = new Set(best.prefix);
  const concurrent = ops.filter((op, i) => !placed.has(i) && i !== best.blocking && op.invokeMs <= blocking.completeMs && op.completeMs >= blocking.invokeMs);
  const lines = [
    `key ${JSON.stringify(key)}: not linearizable (${ops.length} operations).`,
    `Longest linearizable prefix (${best.prefix.length} operations), ending in state: ${describeState(best.state)}`,
    ...best.prefix.slice(-20).map((i) => `  ${(ops[i] as KeyOperation).description}`),
    `This operation completed, but no order of the pending operations can place it:`,
    `  ${blocking.description}`,
    `Operations concurrent with it and not placed:`,
    ...(concurrent.length === 0 ? ['  (none)'] : concurrent.slice(0, 20).map((op) => `  ${op.description}`)),
  ];
  if (best.prefix.length > 20) lines.splice(2, 0, `  ... ${best.prefix.length - 20} earlier operations`);
  return {
    key,
    status: 'violation',
    operations: ops.length,
    steps,
    linearizedPrefix: best.prefix.map((i) => (ops[i] as KeyOperation).historyIndex),
    blockingOperation: blocking.historyIndex,
    explanation: lines.join('\n'),
  };
}
