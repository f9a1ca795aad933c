import type { LogStorage } from './log-storage.ts';
import { limitSize } from './message.ts';
import { RaftError, index, term } from './types.ts';
import type { ConfState, Entry, HardState, Index, Snapshot, Term } from './types.ts';

/** The configuration with no members at all. */
export const emptyConfState: ConfState = { voters: [], learners: [], votersOutgoing: [], learnersNext: [], autoLeave: false };

/**
 * An in-memory LogStorage: the model storage for tests and the simulator's "disk".
 * `ents[0]` is a dummy entry standing for the snapshot (its index and term), so the log
 * always knows the term of `firstIndex() - 1`.
 */
export class MemoryStorage implements LogStorage {
  private hardState: HardState = { term: term(0), vote: '', commit: index(0) };
  private snap: Snapshot;
  private ents: Entry[];

  /** An empty log; `confState` is the membership it starts with (empty when absent). */
  constructor(opts?: { confState?: ConfState }) {
    const cs = opts?.confState ?? emptyConfState;
    this.snap = { metadata: { index: index(0), term: term(0), confState: cs }, data: new Uint8Array(0) };
    this.ents = [dummy(index(0), term(0))];
  }

  /** The hard state and the membership of the latest snapshot (or as set by setConfState). */
  initialState(): { hardState: HardState; confState: ConfState } {
    return { hardState: this.hardState, confState: this.snap.metadata.confState };
  }

  /** Records the hard state (the driver calls it when it persists a Ready). */
  setHardState(hs: HardState): void {
    this.hardState = hs;
  }

  /** Records the membership a restarted node should start with (additive: keeps the snapshot's data). */
  setConfState(cs: ConfState): void {
    this.snap = { ...this.snap, metadata: { ...this.snap.metadata, confState: cs } };
  }

  /** Entries in [lo, hi), at least one, within maxBytes; throws Compacted / Unavailable. */
  entries(lo: Index, hi: Index, maxBytes: number): Entry[] {
    const offset = this.offset();
    if (lo <= offset) throw new RaftError('Compacted', `entries(${lo}) at or below snapshot ${offset}`);
    if (hi > this.lastIndex() + 1) throw new RaftError('Unavailable', `entries up to ${hi} beyond last ${this.lastIndex()}`);
    if (lo >= hi) return [];
    return limitSize(this.ents.slice(lo - offset, hi - offset), maxBytes);
  }

  /** The term of the entry at i, for i in [firstIndex() - 1, lastIndex()]. */
  term(i: Index): Term {
    const offset = this.offset();
    if (i < offset) throw new RaftError('Compacted', `term(${i}) below snapshot ${offset}`);
    const e = this.ents[i - offset];
    if (e === undefined) throw new RaftError('Unavailable', `term(${i}) beyond last ${this.lastIndex()}`);
    return e.term;
  }

  /** The snapshot index + 1. */
  firstIndex(): Index {
    return index(this.offset() + 1);
  }

  /** The last entry's index, or the snapshot index when the log is empty. */
  lastIndex(): Index {
    return index(this.offset() + this.ents.length - 1);
  }

  /** The most recent snapshot. */
  snapshot(): Snapshot {
    return this.snap;
  }

  /** Replaces the whole log by the snapshot; refuses (SnapshotOutOfDate) an older one. */
  applySnapshot(snap: Snapshot): void {
    if (snap.metadata.index < this.snap.metadata.index) {
      throw new RaftError('SnapshotOutOfDate', `snapshot ${snap.metadata.index} older than ${this.snap.metadata.index}`);
    }
    this.snap = snap;
    this.ents = [dummy(snap.metadata.index, snap.metadata.term)];
  }

  /**
   * Makes a snapshot at i (i <= last applied, decided by the caller) with the given membership
   * (null keeps the current one). Does not drop entries: call compact for that.
   */
  createSnapshot(i: Index, confState: ConfState | null, data: Uint8Array): Snapshot {
    if (i <= this.snap.metadata.index) throw new RaftError('SnapshotOutOfDate', `snapshot at ${i} is not newer`);
    if (i > this.lastIndex()) throw new Error(`assert: snapshot ${i} beyond last index ${this.lastIndex()}`);
    const cs = confState ?? this.snap.metadata.confState;
    this.snap = { metadata: { index: i, term: this.term(i), confState: cs }, data };
    return this.snap;
  }

  /** Drops the entries up to and including i (i <= the latest snapshot index is expected). */
  compact(i: Index): void {
    const offset = this.offset();
    if (i <= offset) throw new RaftError('Compacted', `compact(${i}) at or below ${offset}`);
    if (i > this.lastIndex()) throw new Error(`assert: compact ${i} beyond last index ${this.lastIndex()}`);
    const keep = this.ents.slice(i - offset + 1);
    this.ents = [dummy(i, this.term(i)), ...keep];
  }

  /** Appends entries, first dropping any conflicting suffix; entries at or below the snapshot are skipped. */
  append(entries: readonly Entry[]): void {
    if (entries.length === 0) return;
    const first = this.firstIndex();
    const last = entries[entries.length - 1]!.index;
    if (last < first) return;
    const fresh = entries[0]!.index < first ? entries.slice(first - entries[0]!.index) : entries;
    const at = fresh[0]!.index - this.offset();
    if (at > this.ents.length) {
      throw new Error(`assert: append leaves a gap: last ${this.lastIndex()}, new ${fresh[0]!.index}`);
    }
    this.ents = [...this.ents.slice(0, at), ...fresh];
  }

  /** A deep copy: the simulator keeps it as a node's "disk" across crashes. */
  clone(): MemoryStorage {
    const c = new MemoryStorage();
    c.hardState = { ...this.hardState };
    c.snap = cloneSnapshot(this.snap);
    c.ents = this.ents.map((e) => ({ ...e, data: e.data.slice() }));
    return c;
  }

  private offset(): Index {
    return this.ents[0]!.index;
  }
}

function dummy(i: Index, t: Term): Entry {
  return { index: i, term: t, type: 'normal', data: new Uint8Array(0) };
}

function cloneSnapshot(s: Snapshot): Snapshot {
  const cs = s.metadata.confState;
  const confState: ConfState = {
    voters: [...cs.voters],
    learners: [...cs.learners],
    votersOutgoing: [...cs.votersOutgoing],
    learnersNext: [...cs.learnersNext],
    autoLeave: cs.autoLeave,
  };
  return { metadata: { ...s.metadata, confState }, data: s.data.slice() };
}
