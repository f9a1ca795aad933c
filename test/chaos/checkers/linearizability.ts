// A linearizability checker in the style of Wing & Gong with Lowe's memoization, as porcupine
// does it: per key (P-compositionality), a depth-first search over the order of call and return
// events, linearizing a pending operation when the model allows it and backtracking when an
// operation returns before it could be linearized. A (set of linearized operations, state) pair
// seen before is not explored again. Operations with an unknown outcome return at infinity: they
// may be linearized at any point after their call, or never.
import type { Operation } from './history.ts';
import { absent, describeKeyOperation, describeState, isDead, partitionsByKey, stateKey, step, unobservedValue, type KeyOperation, type PartitionOptions, type RegisterState } from './register-model.ts';

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

/**
 * Checks a history against the per-key register model, one key at a time (only that key's
 * operations are held while it is searched). Pure; never throws for a bad history.
 */
export function checkLinearizability(history: readonly Operation[], options: LinearizabilityOptions = {}): LinearizabilityReport {
  const keys: KeyVerdict[] = [];
  for (const [key, ops] of partitionsByKey(history, options)) keys.push(checkKey(history, key, ops, options.stepsMaxPerKey ?? 10_000_000));
  const violations = keys.filter((k) => k.status === 'violation');
  const status = violations.length > 0 ? 'violation' : keys.some((k) => k.status === 'unknown') ? 'unknown' : 'ok';
  return { status, keys, violations };
}

interface Entry {
  /** The operation (index into the key's operations); -1 for the head and the end. */
  readonly op: number;
  readonly isCall: boolean;
  readonly timeMs: number;
  /** Index in the order of all entries (by time, calls before returns at equal times); the head is -1. */
  readonly position: number;
  /** A call's return; undefined for an operation of unknown outcome, which returns at the end. */
  match: Entry | undefined;
  prev: Entry | undefined;
  next: Entry | undefined;
}

/**
 * The doubly linked list of call and return events that the search walks, in time order, with
 * calls before returns at equal times. Operations of unknown outcome have no return entry: one
 * end entry at infinity stands for all of them. Entries leave and come back in stack order
 * (dancing links), except `insert`, which places a call that was never linked at its position.
 */
class EntryList {
  readonly head: Entry = { op: -1, isCall: false, timeMs: -Infinity, position: -1, match: undefined, prev: undefined, next: undefined };
  /** Each operation's call entry. */
  readonly callOf: Entry[] = [];
  private readonly ordered: Entry[];
  /** 1 where the entry at that position is linked. */
  private readonly linked: Uint8Array;

  /** Links every operation except those `leftOut` says to keep out until inserted. */
  constructor(ops: readonly KeyOperation[], leftOut: (op: number) => boolean) {
    const events: Array<Omit<Entry, 'position'>> = [];
    ops.forEach((op, i) => {
      const call: Omit<Entry, 'position'> = { op: i, isCall: true, timeMs: op.invokeMs, match: undefined, prev: undefined, next: undefined };
      events.push(call);
      if (op.completeMs !== Infinity) {
        const ret = { op: i, isCall: false, timeMs: op.completeMs, match: undefined, prev: undefined, next: undefined };
        call.match = ret as Entry;
        events.push(ret);
      }
    });
    events.push({ op: -1, isCall: false, timeMs: Infinity, match: undefined, prev: undefined, next: undefined });
    events.sort((a, b) => a.timeMs - b.timeMs || Number(a.isCall ? 0 : 1) - Number(b.isCall ? 0 : 1) || a.op - b.op);
    // Positions are set in place, so that a call's `match` (the same object) carries its own.
    events.forEach((e, position) => Object.assign(e, { position }));
    this.ordered = events as Entry[];
    this.linked = new Uint8Array(events.length);
    let last = this.head;
    for (const event of this.ordered) {
      if (event.isCall) this.callOf[event.op] = event;
      if (event.op >= 0 && leftOut(event.op)) continue;
      last.next = event;
      event.prev = last;
      last = event;
      this.linked[event.position] = 1;
    }
  }

  /** Unlinks an operation's call and return. */
  lift(call: Entry): void {
    unlink(call);
    this.linked[call.position] = 0;
    if (call.match !== undefined) {
      unlink(call.match);
      this.linked[call.match.position] = 0;
    }
  }

  /** Relinks what the matching `lift` unlinked (the list must be as it was right after it). */
  unlift(call: Entry): void {
    if (call.match !== undefined) {
      relink(call.match);
      this.linked[call.match.position] = 1;
    }
    relink(call);
    this.linked[call.position] = 1;
  }

  /** Links the call of an operation of unknown outcome, kept out until now, at its place in time. */
  insert(call: Entry): void {
    let before = call.position - 1;
    while (before >= 0 && this.linked[before] === 0) before -= 1;
    const prev = before < 0 ? this.head : (this.ordered[before] as Entry);
    call.prev = prev;
    call.next = prev.next;
    relink(call);
    this.linked[call.position] = 1;
  }
}

function unlink(entry: Entry): void {
  (entry.prev as Entry).next = entry.next;
  if (entry.next !== undefined) entry.next.prev = entry.prev;
}

function relink(entry: Entry): void {
  (entry.prev as Entry).next = entry;
  if (entry.next !== undefined) entry.next.prev = entry;
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
 *    returned) are interchangeable: only the earliest pending one of such a group is tried. The
 *    others stay out of the list until the one before them is linearized (and leave it again when
 *    that is undone), so scans never walk over them: a long run has thousands of unknown writes
 *    pending for ever, and walking them at every step made the search quadratic.
 *  - An unknown-outcome compare-and-swap whose version is behind can never apply again on this
 *    path: it is unlinked (relinked when the search backtracks past that point), so scans skip it.
 */
class Search {
  private readonly entries: EntryList;
  private readonly table: Uint32Array;
  private readonly seen = new Set<string>();
  /** The linearized operations, in order; `activated` is the interchangeable one its placing let in. */
  private readonly calls: Array<{ entry: Entry; state: RegisterState; pure: boolean; dead: Entry[]; activated: Entry | undefined }> = [];
  private readonly rootDead: Entry[] = [];
  private hash1 = 0;
  private hash2 = 0;
  private state: RegisterState = absent;
  private entry: Entry | undefined;
  /** In the pure phase only state-preserving operations are placed. */
  private purePhase = true;
  /**
   * The longest linearizable prefix seen: `bestPrefix` holds it, of which the first `bestStable`
   * entries are still the bottom of `calls` (no pop went below them since), so a new best copies
   * only what was pushed since: copying costs no more than the pushes, not the square of them.
   */
  private readonly bestPrefix: number[] = [];
  private bestStable = 0;
  private bestBlocking: number | undefined;
  private bestState: RegisterState = absent;
  /** Revisions of acknowledged writes, ascending; the first `placedKnown` are linearized. */
  private readonly knownRevisions: number[];
  private placedKnown = 0;
  /** For each unknown write, the next interchangeable one (by call order), or -1. */
  private readonly twinAfter: Int32Array;
  steps = 0;

  constructor(private readonly ops: readonly KeyOperation[]) {
    this.knownRevisions = ops.filter(knownRevision).map((op) => op.outputResourceVersion as number).sort((a, b) => a - b);
    const [twinBefore, twinAfter] = interchangeable(ops);
    this.twinAfter = twinAfter;
    this.entries = new EntryList(ops, (op) => (twinBefore[op] as number) >= 0);
    this.table = zobrist(ops.length);
    this.entry = this.entries.head.next;
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
        this.entry = this.entries.head.next;
        continue;
      }
      if (this.bestBlocking === undefined || this.calls.length >= this.bestPrefix.length) this.recordBest(entry.op);
      if (!this.backtrack()) return false;
    }
    return true;
  }

  /** The longest linearizable prefix seen and the operation that blocked it. */
  get counterexample(): { prefix: number[]; blocking: number; state: RegisterState } {
    return { prefix: [...this.bestPrefix], blocking: this.bestBlocking ?? 0, state: this.bestState };
  }

  private recordBest(blocking: number): void {
    this.bestPrefix.length = this.bestStable;
    for (let i = this.bestStable; i < this.calls.length; i += 1) this.bestPrefix.push((this.calls[i] as { entry: Entry }).entry.op);
    this.bestStable = this.calls.length;
    this.bestBlocking = blocking;
    this.bestState = this.state;
  }

  /** Tries to linearize the call at the cursor; false when the search is exhausted. */
  private tryCall(entry: Entry): boolean {
    const op = this.ops[entry.op] as KeyOperation;
    const ceiling = this.knownRevisions[this.placedKnown] ?? Infinity;
    const known = knownRevision(op);
    const next = known && op.outputResourceVersion !== ceiling ? undefined : step(this.state, op, ceiling);
    const pure = next === this.state;
    if (next === undefined || (this.purePhase && !pure)) {
      if (next === undefined && isDead(this.state, op)) {
        this.entries.lift(entry);
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
      const twin = this.twinAfter[entry.op] as number;
      const activated = twin >= 0 ? this.entries.callOf[twin] : undefined;
      this.calls.push({ entry, state: this.state, pure, dead: [], activated });
      [this.hash1, this.hash2, this.state] = [h1, h2, next];
      this.entries.lift(entry);
      if (activated !== undefined) this.entries.insert(activated);
      if (known) this.placedKnown += 1;
      this.entry = this.entries.head.next;
      this.purePhase = true;
      return true;
    }
    if (!pure) {
      this.entry = entry.next;
      return true;
    }
    return this.backtrack();
  }

  /** Undoes linearized operations until one worth leaving pending; false when none is left. */
  private backtrack(): boolean {
    for (let top = this.calls.pop(); top !== undefined; top = this.calls.pop()) {
      this.bestStable = Math.min(this.bestStable, this.calls.length);
      for (let i = top.dead.length - 1; i >= 0; i -= 1) this.entries.unlift(top.dead[i] as Entry);
      if (top.activated !== undefined) this.entries.lift(top.activated);
      this.hash1 ^= this.table[top.entry.op * 2] as number;
      this.hash2 ^= this.table[top.entry.op * 2 + 1] as number;
      this.state = top.state;
      this.entries.unlift(top.entry);
      if (knownRevision(this.ops[top.entry.op] as KeyOperation)) this.placedKnown -= 1;
      this.entry = top.entry.next;
      this.purePhase = false;
      if (!top.pure) return true;
    }
    return false;
  }
}

/** For each unknown write, the previous and the next interchangeable one by call order (-1: none). */
function interchangeable(ops: readonly KeyOperation[]): [Int32Array, Int32Array] {
  const before = new Int32Array(ops.length).fill(-1);
  const after = new Int32Array(ops.length).fill(-1);
  const lastOfGroup = new Map<string, number>();
  const order = ops.map((_, i) => i).sort((a, b) => (ops[a] as KeyOperation).invokeMs - (ops[b] as KeyOperation).invokeMs || a - b);
  for (const i of order) {
    const op = ops[i] as KeyOperation;
    if (op.outcome !== 'unknown' || (op.value !== undefined && op.value !== unobservedValue)) continue;
    const group = `${op.kind}|${op.expectedResourceVersion ?? ''}|${op.value ?? ''}`;
    const previous = lastOfGroup.get(group);
    if (previous !== undefined) {
      before[i] = previous;
      after[previous] = i;
    }
    lastOfGroup.set(group, i);
  }
  return [before, after];
}

/** An acknowledged write whose revision the server reported (deletes only when trusted, see PartitionOptions). */
function knownRevision(op: KeyOperation): boolean {
  return op.outcome === 'ok' && op.kind !== 'read' && op.outputResourceVersion !== undefined;
}

function checkKey(history: readonly Operation[], key: string, ops: readonly KeyOperation[], stepsMax: number): KeyVerdict {
  const search = new Search(ops);
  const verdict = search.run(stepsMax);
  if (verdict === undefined) return { key, status: 'unknown', operations: ops.length, steps: search.steps, explanation: `search budget of ${stepsMax} steps exhausted` };
  if (verdict) return { key, status: 'ok', operations: ops.length, steps: search.steps };
  return violation(history, key, ops, search.steps, search.counterexample);
}

function violation(history: readonly Operation[], key: string, ops: readonly KeyOperation[], steps: number, best: { prefix: number[]; blocking: number; state: RegisterState }): KeyVerdict {
  const blocking = ops[best.blocking] as KeyOperation;
  const text = (op: KeyOperation): string => describeKeyOperation(history, op, key);
  const placed = new Set(best.prefix);
  const concurrent = ops.filter((op, i) => !placed.has(i) && i !== best.blocking && op.invokeMs <= blocking.completeMs && op.completeMs >= blocking.invokeMs);
  const lines = [
    `key ${JSON.stringify(key)}: not linearizable (${ops.length} operations).`,
    `Longest linearizable prefix (${best.prefix.length} operations), ending in state: ${describeState(best.state)}`,
    ...best.prefix.slice(-20).map((i) => `  ${text(ops[i] as KeyOperation)}`),
    `This operation completed, but no order of the pending operations can place it:`,
    `  ${text(blocking)}`,
    `Operations concurrent with it and not placed:`,
    ...(concurrent.length === 0 ? ['  (none)'] : concurrent.slice(0, 20).map((op) => `  ${text(op)}`)),
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
