/**
 * Follows local proposals from `propose()` to their outcome. The core does not return the
 * index of a proposal, so proposals are matched, in order, to the entries of the next Ready
 * that carry the same type and bytes; from then on they are known by (index, term) and
 * resolve when that entry applies, or fail when another entry applies at that index.
 */
import type { Entry, EntryType, Index, Term } from './core/types.ts';
import { RaftNodeError } from './errors.ts';
import { pendingProposalsMax } from './limits.ts';

interface Waiter {
  readonly resolve: (i: Index) => void;
  readonly reject: (e: Error) => void;
  /** When it was proposed (performance.now() milliseconds). */
  readonly proposedAt: number;
}

interface Unmatched extends Waiter {
  readonly type: EntryType;
  readonly data: Uint8Array;
}

interface Matched extends Waiter {
  readonly term: Term;
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a === b) return true;
  if (a.byteLength !== b.byteLength) return false;
  return Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(Buffer.from(b.buffer, b.byteOffset, b.byteLength));
}

/** The proposals of one node awaiting their outcome. Bounded by `pendingProposalsMax`. */
export class ProposalTracker {
  private unmatched: Unmatched[] = [];
  private readonly matched = new Map<Index, Matched>();

  /** How many proposals await an outcome. */
  get size(): number {
    return this.unmatched.length + this.matched.size;
  }

  /**
   * Registers a proposal about to be handed to the core; the promise settles with its index
   * once applied. Throws QueueFull when too many are pending. Data must be non-empty (empty
   * data is the leader's no-op entry). `now` is when it was proposed.
   */
  add(type: EntryType, data: Uint8Array, now = performance.now()): Promise<Index> {
    if (data.byteLength === 0) throw new Error('assert: a proposal must carry data');
    if (this.size >= pendingProposalsMax) throw new RaftNodeError('QueueFull', `${this.size} proposals pending`);
    return new Promise((resolve, reject) => this.unmatched.push({ type, data, resolve, reject, proposedAt: now }));
  }

  /** Withdraws the most recent registration with `err` (the core refused it synchronously). */
  withdrawLast(err: Error): void {
    this.unmatched.pop()?.reject(err);
  }

  /**
   * Matches the entries a Ready appends. Every proposal registered before that Ready was taken
   * is either in it or was dropped by the core, so leftovers fail with ProposalDropped.
   */
  onAppended(entries: readonly Entry[]): void {
    if (this.unmatched.length === 0) return;
    let next = 0;
    for (const e of entries) {
      const p = this.unmatched[next];
      if (!p) break;
      if (e.type !== p.type || !sameBytes(e.data, p.data)) continue;
      this.matched.get(e.index)?.reject(new RaftNodeError('ProposalOverwritten', `entry ${e.index} was replaced`));
      this.matched.set(e.index, { term: e.term, resolve: p.resolve, reject: p.reject, proposedAt: p.proposedAt });
      next++;
    }
    const dropped = this.unmatched.slice(next);
    this.unmatched = [];
    for (const p of dropped) p.reject(new RaftNodeError('ProposalDropped', 'the proposal did not reach the log (leadership changed)'));
  }

  /** Calls `observe` with how long each proposal among entries just committed took to commit, at `now`. */
  onCommitted(entries: readonly Entry[], now: number, observe: (ms: number) => void): void {
    if (this.matched.size === 0) return;
    for (const e of entries) {
      const p = this.matched.get(e.index);
      if (p !== undefined && p.term === e.term) observe(now - p.proposedAt);
    }
  }

  /** Settles the proposals at the indexes of entries just applied. */
  onApplied(entries: readonly Entry[]): void {
    if (this.matched.size === 0) return;
    for (const e of entries) {
      const p = this.matched.get(e.index);
      if (!p) continue;
      this.matched.delete(e.index);
      if (p.term === e.term) p.resolve(e.index);
      else p.reject(new RaftNodeError('ProposalOverwritten', `entry ${e.index} of term ${p.term} was replaced by term ${e.term}`));
    }
  }

  /** A snapshot moved the applied index to `i`: proposals at or below it have an unknown outcome. */
  onSnapshotApplied(i: Index): void {
    for (const [at, p] of this.matched) {
      if (at > i) continue;
      this.matched.delete(at);
      p.reject(new RaftNodeError('OutcomeUnknown', `entry ${at} was covered by a snapshot before it applied here`));
    }
  }

  /** Fails every pending proposal with `err`. */
  failAll(err: Error): void {
    const all: Waiter[] = [...this.unmatched, ...this.matched.values()];
    this.unmatched = [];
    this.matched.clear();
    for (const p of all) p.reject(err);
  }
}
