import { conflictScanMax } from './limits.ts';
import type { LogStorage } from './log-storage.ts';
import { limitSize } from './message.ts';
import { Unstable } from './unstable.ts';
import { RaftError, index, term } from './types.ts';
import type { Entry, Index, Snapshot, Term } from './types.ts';

/**
 * The log as one node sees it: the persisted part (storage, read-only here) followed by the
 * unstable tail, plus the commit and apply cursors. Invariant: applied <= committed <= lastIndex.
 */
export class RaftLog {
  readonly unstable: Unstable;
  committed: Index;
  applied: Index;
  /** Committed entries up to here were handed to the driver to apply (applied <= applying). */
  applying: Index;

  /** A log over `storage`, its cursors at the storage's snapshot. */
  constructor(
    readonly storage: LogStorage,
    private readonly maxApplyingBytes: number,
  ) {
    const first = storage.firstIndex();
    this.unstable = new Unstable(index(storage.lastIndex() + 1));
    this.committed = index(first - 1);
    this.applied = index(first - 1);
    this.applying = this.applied;
  }

  /** The first index still held (snapshot index + 1). */
  firstIndex(): Index {
    return this.unstable.maybeFirstIndex() ?? this.storage.firstIndex();
  }

  /** The last index held. */
  lastIndex(): Index {
    return this.unstable.maybeLastIndex() ?? this.storage.lastIndex();
  }

  /**
   * The last index of the log that is durable: persisted by the driver (advance) and not being
   * replaced by the unstable tail. Null while a snapshot waits to be persisted.
   */
  durableLastIndex(): Index | null {
    if (this.unstable.snapshot !== null) return null;
    return index(Math.min(this.unstable.offset - 1, this.storage.lastIndex()));
  }

  /** The term at i; throws Compacted below firstIndex()-1, Unavailable above lastIndex(). */
  term(i: Index): Term {
    const t = this.unstable.maybeTerm(i);
    if (t !== null) return t;
    if (i < this.firstIndex() - 1) throw new RaftError('Compacted', `term(${i}) compacted`);
    if (i > this.lastIndex()) throw new RaftError('Unavailable', `term(${i}) beyond last index`);
    return this.storage.term(i);
  }

  /** The term of the last entry. */
  lastTerm(): Term {
    return this.term(this.lastIndex());
  }

  /** Whether the entry at i has term t (false when i is not held). */
  matchTerm(i: Index, t: Term): boolean {
    // Every new entry a follower receives lies beyond its log: answer without building an error.
    if (i > this.lastIndex()) return false;
    try {
      return this.term(i) === t;
    } catch (e) {
      if (e instanceof RaftError) return false;
      throw e;
    }
  }

  /** Raft §5.4.1: a log is more up-to-date if its last term is higher, or equal with a longer log. */
  isUpToDate(lastIndex: Index, lastTerm: Term): boolean {
    const myTerm = this.lastTerm();
    return lastTerm > myTerm || (lastTerm === myTerm && lastIndex >= this.lastIndex());
  }

  /**
   * Follower side of AppendEntries: if the entry at `prev` has `prevTerm`, appends `ents`
   * (dropping a conflicting suffix), advances the commit, and returns the last new index;
   * returns null when the consistency check fails.
   */
  maybeAppend(prev: Index, prevTerm: Term, commit: Index, ents: readonly Entry[]): Index | null {
    if (!this.matchTerm(prev, prevTerm)) return null;
    const lastNew = index(prev + ents.length);
    const ci = this.findConflict(ents);
    if (ci !== 0) {
      if (ci <= this.committed) throw new Error(`assert: conflict at ${ci} with committed ${this.committed}`);
      this.append(ents.slice(ci - (prev + 1)));
    }
    this.commitTo(index(Math.min(commit, lastNew)));
    return lastNew;
  }

  /** Appends entries at the end (after dropping what they overwrite); returns the new last index. */
  append(ents: readonly Entry[]): Index {
    const first = ents[0];
    if (first === undefined) return this.lastIndex();
    if (first.index - 1 < this.committed) throw new Error(`assert: append at ${first.index} below commit ${this.committed}`);
    this.unstable.truncateAndAppend(ents);
    return this.lastIndex();
  }

  /** The index of the first entry of ents that is new or conflicts with the log (0 if none). */
  findConflict(ents: readonly Entry[]): number {
    for (const e of ents) if (!this.matchTerm(e.index, e.term)) return e.index;
    return 0;
  }

  /**
   * The largest index <= i whose term is <= t, with that term (0 when not known): a hint that
   * lets the leader skip a whole term of conflicting entries at once (etcd's findConflictByTerm).
   */
  findConflictByTerm(i: Index, t: Term): [Index, Term] {
    let at = i;
    for (let scanned = 0; at > 0 && scanned < conflictScanMax; scanned++) {
      let tt: Term;
      try {
        tt = this.term(at);
      } catch (e) {
        if (e instanceof RaftError) return [at, term(0)];
        throw e;
      }
      if (tt <= t) return [at, tt];
      at = index(at - 1);
    }
    return [at, term(0)];
  }

  /** Entries in [lo, hi) within maxBytes (at least one); throws Compacted when lo is compacted. */
  slice(lo: Index, hi: Index, maxBytes: number): Entry[] {
    if (lo >= hi) return [];
    if (lo < this.firstIndex()) throw new RaftError('Compacted', `slice(${lo}) compacted`);
    if (hi > this.lastIndex() + 1) throw new Error(`assert: slice to ${hi} beyond last ${this.lastIndex()}`);
    const off = this.unstable.offset;
    let ents: Entry[] = [];
    if (lo < off) {
      const storedHi = index(Math.min(hi, off));
      ents = this.storage.entries(lo, storedHi, maxBytes);
      if (ents.length < storedHi - lo) return ents;
    }
    if (hi > off) ents = [...ents, ...this.unstable.slice(index(Math.max(lo, off)), hi)];
    return limitSize(ents, maxBytes);
  }

  /** Entries from i to the end, within maxBytes. */
  entriesFrom(i: Index, maxBytes: number): Entry[] {
    return i > this.lastIndex() ? [] : this.slice(i, index(this.lastIndex() + 1), maxBytes);
  }

  /** Committed entries not yet handed out for applying, within the per-Ready byte cap. */
  nextCommittedEntries(): Entry[] {
    const off = Math.max(this.applying + 1, this.firstIndex());
    if (this.committed + 1 <= off) return [];
    return this.slice(index(off), index(this.committed + 1), this.maxApplyingBytes);
  }

  /** Whether nextCommittedEntries() is non-empty. */
  hasNextCommittedEntries(): boolean {
    return this.committed + 1 > Math.max(this.applying + 1, this.firstIndex());
  }

  /** The snapshot to send a lagging follower: the unstable one, else the storage's. */
  snapshot(): Snapshot {
    return this.unstable.snapshot ?? this.storage.snapshot();
  }

  /** Raises the commit index (never lowers it); asserts the entries exist. */
  commitTo(c: Index): void {
    if (c <= this.committed) return;
    if (c > this.lastIndex()) throw new Error(`assert: commit ${c} beyond last index ${this.lastIndex()} (log lost?)`);
    this.committed = c;
  }

  /** Leader: commits up to maxIndex if its entry is of `currentTerm` (Raft §5.4.2), unless told to count blindly. */
  maybeCommit(maxIndex: Index, currentTerm: Term, countPriorTerms: boolean): boolean {
    if (maxIndex <= this.committed) return false;
    if (!countPriorTerms && !this.matchTerm(maxIndex, currentTerm)) return false;
    this.commitTo(maxIndex);
    return true;
  }

  /** Records that the driver is applying entries up to i. */
  applyingTo(i: Index): void {
    if (i > this.applying) this.applying = i;
  }

  /** Records that the state machine applied up to i. */
  appliedTo(i: Index): void {
    if (i === 0 || i <= this.applied) return;
    if (i > this.committed) throw new Error(`assert: applied ${i} beyond commit ${this.committed}`);
    this.applied = i;
    if (this.applying < i) this.applying = i;
  }

  /** Persisted up to (i, t). */
  stableTo(i: Index, t: Term): void {
    this.unstable.stableTo(i, t);
  }

  /** Snapshot i was persisted. */
  stableSnapTo(i: Index): void {
    this.unstable.stableSnapTo(i);
  }

  /** Replaces the log by a snapshot (follower install); commit jumps to its index. */
  restore(s: Snapshot): void {
    this.committed = s.metadata.index;
    this.unstable.restore(s);
  }
}
