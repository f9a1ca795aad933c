/**
 * The storage contract the API server uses. It knows keys, opaque values and revisions;
 * nothing of resources, HTTP or admission. Every implementation passes the one conformance
 * suite (`test/unit/storage/conformance.ts`, `runStorageTests(makeStorage)`).
 */

declare const brand: unique symbol;

/** The store's global revision: one per applied write; the API's resourceVersion. */
export type Revision = number & { readonly [brand]: 'Revision' };

/** Builds a Revision from a number, asserting it is a non-negative safe integer. */
export function revision(n: number): Revision {
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`assert: bad revision ${n}`);
  return n as Revision;
}

/** One stored key at one revision. `value` is the object's JSON bytes, without resourceVersion. */
export interface KeyValue {
  readonly key: string;
  readonly value: Uint8Array;
  /** The revision that created this incarnation of the key. */
  readonly createRevision: Revision;
  /** The revision of this value (the resourceVersion). */
  readonly modRevision: Revision;
}

/**
 * How fresh a read must be. `linearizable` ("Most Recent"): confirmed with the leader
 * (ReadIndex) before reading locally. `local` ("Any"): this replica's applied state.
 */
export type ReadConsistency = 'linearizable' | 'local';

/** Options of a single-key read. */
export interface GetOptions {
  readonly consistency?: ReadConsistency; // default 'linearizable'
  /** Read the value as of this revision (MVCC). Throws `Compacted` below the compacted revision, `RevisionTooLarge` above the current one. */
  readonly revision?: Revision;
}

/** Options of a range read over keys with a prefix. */
export interface ListOptions {
  readonly prefix: string;
  readonly consistency?: ReadConsistency; // default 'linearizable'
  /** List as of this revision (MVCC snapshot); absent means the current revision. */
  readonly revision?: Revision;
  /** Start at this key (inclusive); used by continuation. */
  readonly startKey?: string;
  /** Maximum items returned; absent or 0 means all. */
  readonly limit?: number;
  /**
   * Whether a limited page counts the items after it (`remainingCount`), default true. Counting
   * reads the rest of the range: a reader walking a whole range page by page says false, else
   * its walk costs the square of the range.
   */
  readonly countRemaining?: boolean;
}

/** A page of a range read, all at one revision. */
export interface ListResult {
  readonly items: readonly KeyValue[];
  /** The revision the page was read at (the list's resourceVersion). */
  readonly revision: Revision;
  /** The first key after this page, when more items remain. */
  readonly nextKey: string | null;
  /** Items after this page at the same revision (0 when none); undefined when not counted (countRemaining false). */
  readonly remainingCount: number | undefined;
}

/** A precondition on a write: the key's current modRevision must equal this. */
export interface WritePrecondition {
  readonly expectedRevision?: Revision;
}

/** What changed at one revision, or a progress notification. */
export type WatchEvent =
  | { readonly type: 'create'; readonly kv: KeyValue }
  | { readonly type: 'update'; readonly kv: KeyValue; readonly prevKv: KeyValue }
  | { readonly type: 'delete'; readonly kv: KeyValue; readonly prevKv: KeyValue }
  /** Every change up to `revision` has been delivered (a bookmark). */
  | { readonly type: 'progress'; readonly revision: Revision };

/** Options of a watch. */
export interface WatchOptions {
  /** Watch keys with this prefix (a single key is a prefix equal to the whole key). */
  readonly prefix: string;
  /** Deliver events with revision strictly greater than this. Throws `Compacted` if it is older than history. */
  readonly afterRevision: Revision;
  /** Emit `progress` events when the store's revision advances without matching events, at most this often. */
  readonly progressIntervalMs?: number;
}

/**
 * A live watch. Iterate it to receive events in revision order, with no gap and no duplicate.
 * Iteration ends normally after `stop()`; it throws a `StorageError` (`Compacted`,
 * `WatcherTooSlow`, `Unavailable`) when the store closes the watch.
 */
export interface Watcher extends AsyncIterable<WatchEvent> {
  stop(): void;
  /**
   * Queues a `progress` event at the revision covered so far, after the events already queued (etcd's
   * RequestProgress): a consumer that reaches it has had every matching change up to that revision.
   * Does nothing once the watch is over.
   */
  requestProgress(): void;
  /**
   * Settles (never rejects) once the watch is over: with the error the store closed it with, or null
   * after `stop()`. A consumer that has not iterated for a while learns this way that the store gave up.
   */
  readonly ended: Promise<StorageError | null>;
}

/** The storage used by the API's registry. All methods are safe to call concurrently. */
export interface Storage {
  get(key: string, options?: GetOptions): Promise<KeyValue | null>;
  list(options: ListOptions): Promise<ListResult>;
  /** Creates the key. Throws `KeyExists`. */
  create(key: string, value: Uint8Array): Promise<KeyValue>;
  /** Replaces the key's value. Throws `KeyNotFound`, or `Conflict` when the precondition fails. */
  update(key: string, value: Uint8Array, precondition?: WritePrecondition): Promise<KeyValue>;
  /** Deletes the key, returning its last value. Throws `KeyNotFound`, or `Conflict` when the precondition fails. */
  delete(key: string, precondition?: WritePrecondition): Promise<KeyValue>;
  watch(options: WatchOptions): Watcher;
  /** The latest revision, confirmed with the leader (linearizable). */
  currentRevision(): Promise<Revision>;
  /** The latest revision this replica has applied (no round trip). */
  localRevision(): Revision;
  /** The oldest revision still readable; history at or below it is gone. */
  compactedRevision(): Revision;
  /** Discards history at and below `rev` (never the latest value of a live key). */
  compact(rev: Revision): Promise<void>;
  /** Waits until this replica has applied `rev`; throws `RevisionTooLarge` after `timeoutMs`. */
  waitForRevision(rev: Revision, timeoutMs: number): Promise<void>;
  close(): Promise<void>;
}

/** Stable codes of storage errors; the registry maps each to one API Status. */
export type StorageErrorCode =
  | 'KeyNotFound'
  | 'KeyExists'
  | 'Conflict'
  | 'Compacted'
  | 'RevisionTooLarge'
  | 'WatcherTooSlow'
  | 'Unavailable'
  | 'Indeterminate'
  | 'ValueTooLarge';

/** An operating error of the store, carrying a stable code. */
export class StorageError extends Error {
  constructor(
    readonly code: StorageErrorCode,
    message: string,
    /** For `Conflict` and `KeyExists`: the key's current modRevision, when known. */
    readonly currentRevision?: Revision,
  ) {
    super(message);
    this.name = 'StorageError';
  }
}
