/** Operating errors of the Raft driver and transport, each with a stable code. */

/** Why the driver refused or abandoned a request. */
export type RaftNodeErrorCode =
  | 'NotLeader' // this node is not the leader (propose) or no leader is known (forward)
  | 'ProposalDropped' // the core refused the proposal, or it vanished before reaching the log
  | 'ProposalOverwritten' // a new leader replaced the entry; it will never apply
  | 'OutcomeUnknown' // a snapshot covered the entry before this node saw it apply; it may or may not have
  | 'ConfChangePending' // a membership change is still being applied; propose the next one later
  | 'QueueFull' // a bounded queue is full; retry later
  | 'TooLarge' // the proposal exceeds proposalBytesMax
  | 'Timeout'
  | 'Unavailable' // the peer could not be reached
  | 'Stopped' // the node is stopping or stopped
  | 'Remote' // the leader's application handler failed
  | 'AlreadyMember' // a membership change adds a node that is a member already
  | 'NotMember' // a membership change names a node that is not a member
  | 'NotLearner' // a promotion names a voter
  | 'LearnerBehind' // a promotion names a learner too far behind the leader's log
  | 'LastVoter' // a removal would leave the group without a voter
  | 'PermissionDenied' // a peer asked for a membership change in another node's name
  | 'Removed'; // this node was removed from its group: its data cannot rejoin

/** An operating error of the Raft driver (never a bug: those are assert-style Errors). */
export class RaftNodeError extends Error {
  constructor(
    readonly code: RaftNodeErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'RaftNodeError';
  }
}
