import { index } from './types.ts';
import type { Entry, Index, Snapshot, Term } from './types.ts';

/**
 * The tail of the log not yet persisted by the driver: an incoming snapshot and/or entries
 * starting at `offset`. They move to storage when the driver persists a Ready and calls advance.
 */
export class Unstable {
  snapshot: Snapshot | null = null;
  entries: Entry[] = [];
  offset: Index;

  /** An empty tail that starts right after the stored log's last index. */
  constructor(offset: Index) {
    this.offset = offset;
  }

  /** The first index, if there is an unstable snapshot. */
  maybeFirstIndex(): Index | null {
    return this.snapshot === null ? null : index(this.snapshot.metadata.index + 1);
  }

  /** The last index, if there are unstable entries or a snapshot. */
  maybeLastIndex(): Index | null {
    if (this.entries.length > 0) return index(this.offset + this.entries.length - 1);
    return this.snapshot === null ? null : this.snapshot.metadata.index;
  }

  /** The term of entry i, if this tail knows it. */
  maybeTerm(i: Index): Term | null {
    if (i < this.offset) {
      if (this.snapshot !== null && this.snapshot.metadata.index === i) return this.snapshot.metadata.term;
      return null;
    }
    const e = this.entries[i - this.offset];
    return e === undefined ? null : e.term;
  }

  /** Entries up to (i, t) were persisted: drop them, unless they were replaced meanwhile. */
  stableTo(i: Index, t: Term): void {
    const got = this.maybeTerm(i);
    if (got === null || got !== t || i < this.offset) return;
    this.entries = this.entries.slice(i + 1 - this.offset);
    this.offset = index(i + 1);
  }

  /** Snapshot i was persisted. */
  stableSnapTo(i: Index): void {
    if (this.snapshot !== null && this.snapshot.metadata.index === i) this.snapshot = null;
  }

  /** Replaces everything by a snapshot. */
  restore(s: Snapshot): void {
    this.offset = index(s.metadata.index + 1);
    this.entries = [];
    this.snapshot = s;
  }

  /** Appends entries, dropping any existing suffix they overwrite. */
  truncateAndAppend(ents: readonly Entry[]): void {
    const first = ents[0];
    if (first === undefined) return;
    const after = first.index;
    if (after === this.offset + this.entries.length) {
      // In place: a leader appends once per proposal, and copying the tail each time made a Ready
      // of N proposals cost N^2 (nothing else holds this array: readers get copies).
      for (const e of ents) this.entries.push(e);
    } else if (after <= this.offset) {
      this.offset = after;
      this.entries = [...ents];
    } else {
      this.entries = [...this.entries.slice(0, after - this.offset), ...ents];
    }
  }

  /** Entries in [lo, hi); asserts they are all in this tail. */
  slice(lo: Index, hi: Index): Entry[] {
    if (lo > hi || lo < this.offset || hi > this.offset + this.entries.length) {
      throw new Error(`assert: unstable slice [${lo},${hi}) out of [${this.offset},${this.offset + this.entries.length})`);
    }
    return this.entries.slice(lo - this.offset, hi - this.offset);
  }
}
