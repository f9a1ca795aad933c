// What a replica logs of its Raft node and controllers, as structured lines: elections and the
// leader at V(0) (rare, and what an operator looks for first), membership changes at V(0),
// controller writes at V(2) (kube-controller-manager logs its actions at --v=2 and above).
import type { RaftNode } from '../../raft/node.ts';
import type { RaftEvent } from '../../raft/index.ts';
import type { ControllerAction } from '../controllers/controller-identity.ts';
import type { Logger } from '../logging/logger.ts';

/** The verbosity of a controller's write. */
export const controllerActionVerbosity = 2;

/** Logs one event of the Raft driver (its `onEvent`). */
export function logRaftEvent(logger: Logger, event: RaftEvent): void {
  if (event.type === 'role') {
    logger.info(`raft: became ${event.role}`, { term: event.term, role: event.role, previousRole: event.previousRole, leader: event.leader });
    return;
  }
  if (event.type === 'removed') {
    logger.error(`raft: this replica was removed from cluster ${event.clusterId} (at log index ${event.index}); stopping: its data directory cannot rejoin (to add it again, start it with an empty data directory and --join)`, { index: event.index, clusterId: event.clusterId });
    return;
  }
  if (event.type === 'join-refused') {
    logger.error(`raft: cannot join the cluster: ${event.reason}; stopping (start it under a name no member has, with a peer certificate of that name)`);
    return;
  }
  const { voters, learners, votersOutgoing } = event.configuration;
  logger.info('raft: membership changed', {
    index: event.index,
    changes: event.changes.map((c) => `${c.type} ${c.nodeId}`),
    voters, learners, ...(votersOutgoing.length === 0 ? {} : { votersOutgoing }),
  });
}

/** Logs every leader this node learns of (a follower's view of an election). */
export function logLeaderChanges(logger: Logger, raft: RaftNode): void {
  raft.on('leader-change', (leader: string | null, term: number) => {
    logger.info(leader === null ? 'raft: no leader known' : `raft: leader is ${leader}`, { leader, term });
  });
}

/** The controllers' `logAction`: one line per write at --v=2. */
export function controllerActionLogger(logger: Logger): (controller: string, action: ControllerAction) => void {
  return (controller, action) => logger.v(controllerActionVerbosity, 'controller action', { controller, ...action });
}
