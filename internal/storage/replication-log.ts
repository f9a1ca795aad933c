// What the storage needs from the Raft node. The driver (raft/node.ts) adapts to this; storage
// never imports Raft.

/** The replicated log as seen by one replica's storage. */
export interface ReplicationLog {
  /** Appends a command; resolves when it is committed AND applied locally. Throws NotAppendedError when it refused the command. */
  propose(data: Uint8Array): Promise<void>;
  /**
   * From a follower: hands the command to the leader on the Raft stream, with no answer (the
   * replica learns the outcome by applying it); it goes again to each new leader until `settle()`.
   * Throws NotAppendedError when it refused the command.
   */
  proposeViaLeader(data: Uint8Array): { settle(): void };
  /** Resolves when this replica has applied at least the linearizable read index. */
  readIndex(): Promise<void>;
  /** Whether this replica currently believes it is the leader. */
  isLeader(): boolean;
}

/**
 * How `propose` and `proposeViaLeader` say a write was refused before it reached the log (no
 * leader here, a proposal dropped or overwritten, a full queue): it can never apply, so repeating
 * it is safe. Any other rejection may come after the entry was appended.
 */
export class NotAppendedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NotAppendedError';
  }
}
