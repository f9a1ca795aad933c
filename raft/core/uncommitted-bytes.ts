import { entriesBytes } from './message.ts';

/**
 * Leader: the data bytes of the entries it appended and has not yet handed out committed (etcd's
 * uncommittedSize). Bounds what a flood of proposals, its own or relayed by followers, can make
 * a leader hold while a quorum does not keep up: past the cap a proposal is refused and its
 * proposer retries later. Counted in data bytes only, so an empty entry (a new leader's no-op)
 * always passes; and a proposal always passes while nothing is pending, so one larger than the cap
 * is not refused forever (an automatic leave-joint refused at the cap is proposed again at the next
 * advance).
 */
export class UncommittedBytes {
  private bytes = 0;

  /** A counter refusing beyond `max` bytes (Infinity: never). */
  constructor(private readonly max: number) {}

  /** The bytes counted now. */
  get value(): number {
    return this.bytes;
  }

  /** Counts `entries` and returns true if they fit under the cap; returns false, counting nothing, if not. */
  tryAdd(entries: readonly { data: Uint8Array }[]): boolean {
    const size = entriesBytes(entries);
    if (this.bytes > 0 && size > 0 && this.bytes + size > this.max) return false;
    this.bytes += size;
    return true;
  }

  /**
   * Committed entries were handed out: they count no more. Entries of earlier terms a new leader
   * commits were never counted by it: the counter stops at 0 rather than go below.
   */
  release(entries: readonly { data: Uint8Array }[]): void {
    this.bytes = Math.max(0, this.bytes - entriesBytes(entries));
  }

  /** A new term or role: nothing is pending for this node as leader. */
  reset(): void {
    this.bytes = 0;
  }
}
