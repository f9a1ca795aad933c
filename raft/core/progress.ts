import { Inflights } from './inflights.ts';
import { index } from './types.ts';
import type { Index } from './types.ts';

/**
 * How the leader sends to one follower: 'probe' sends one app at a time until a match is
 * found; 'replicate' streams optimistically within the inflight window; 'snapshot' waits for
 * a snapshot to be installed and sends nothing.
 */
export type ProgressState = 'probe' | 'replicate' | 'snapshot';

/** The leader's view of one follower's log (etcd's tracker.Progress). */
export class Progress {
  match: Index = index(0);
  next: Index;
  state: ProgressState = 'probe';
  /** In snapshot state: the index of the snapshot being sent. */
  pendingSnapshot: Index = index(0);
  /** Heard from since the last checkQuorum. */
  recentActive = false;
  /** In probe state: a probe is out, wait for its answer (or a heartbeat answer). */
  probeSent = false;
  /** Its last append answer said it commits on the leader's durable index by itself (infersCommitsContext). */
  infersCommits = false;
  /** The highest leaderDurable sent to it (Message.leaderDurable). */
  toldDurable: Index = index(0);
  readonly inflights: Inflights;

  /** A fresh progress expecting `next` as the follower's next index. */
  constructor(
    next: Index,
    maxInflightMsgs: number,
    public isLearner: boolean,
  ) {
    this.next = next;
    this.inflights = new Inflights(maxInflightMsgs);
  }

  private resetState(state: ProgressState): void {
    this.probeSent = false;
    this.pendingSnapshot = index(0);
    this.state = state;
    this.inflights.reset();
  }

  /** Back to probing from just after the match (or after the snapshot that was sent). */
  becomeProbe(): void {
    if (this.state === 'snapshot') {
      const pending = this.pendingSnapshot;
      this.resetState('probe');
      this.next = index(Math.max(this.match + 1, pending + 1));
    } else {
      this.resetState('probe');
      this.next = index(this.match + 1);
    }
  }

  /** Streams optimistically from just after the match. */
  becomeReplicate(): void {
    this.resetState('replicate');
    this.next = index(this.match + 1);
  }

  /** Waits for snapshot `snapshotIndex` to be installed. */
  becomeSnapshot(snapshotIndex: Index): void {
    this.resetState('snapshot');
    this.pendingSnapshot = snapshotIndex;
  }

  /** Records an acknowledgement up to n; returns whether the match grew. Resumes probing either way. */
  maybeUpdate(n: Index): boolean {
    let updated = false;
    if (this.match < n) {
      this.match = n;
      updated = true;
      this.probeSent = false;
    }
    this.next = index(Math.max(this.next, n + 1));
    return updated;
  }

  /** Assumes entries up to n will arrive (replicate mode). */
  optimisticUpdate(n: Index): void {
    this.next = index(n + 1);
  }

  /**
   * Handles a rejection of the app at `rejected`; `matchHint` is the highest index that may
   * match. Returns false for a stale rejection (ignored).
   */
  maybeDecrTo(rejected: Index, matchHint: Index): boolean {
    if (this.state === 'replicate') {
      if (rejected <= this.match) return false;
      this.next = index(this.match + 1);
      return true;
    }
    if (this.next - 1 !== rejected) return false;
    this.next = index(Math.max(Math.min(rejected, matchHint + 1), this.match + 1, 1));
    this.probeSent = false;
    return true;
  }

  /** Whether the leader must not send app messages now. */
  isPaused(): boolean {
    if (this.state === 'probe') return this.probeSent;
    if (this.state === 'replicate') return this.inflights.full();
    return true;
  }
}
