/**
 * The liveness phase. After the chaos stops (network healed and calm, every member restarted,
 * no more crashes), within `boundSteps` steps the cluster must reach this state:
 * - exactly the live leader with the highest term, L, has committed an entry of its own term;
 * - every member of L's configuration is up and has applied L's whole commit index;
 * - every proposal whose propose() was accepted has been applied (clients re-propose the
 *   pending ones to each new leader, and every `reproposeSameLeaderSteps` steps, or every
 *   `reproposeEverySteps` while the leader refuses some, as a real client retries);
 * - a ReadIndex asked at L has been answered (re-asked, as a client retries, when it is not
 *   answered within `reproposeEverySteps` steps: a leader drops pending reads when it steps down).
 * Nodes that the applied configuration no longer contains are shut down once every member has
 * applied it, as an operator would.
 */
import { SimViolation } from './invariants.ts';
import { calmNetwork } from './network.ts';
import type { Cluster } from './cluster.ts';
import { committedOwnTerm } from './schedule.ts';
import type { SimNode } from './sim-node.ts';

/** Client retry period for reads in the liveness phase, and for proposals a leader refused. */
const reproposeEverySteps = 20;
/** Client retry period for proposals when the leader does not change. */
const reproposeSameLeaderSteps = 150;
/**
 * Extra calm steps allowed per entry still to replicate when the faults stop: per accepted proposal
 * not applied (clients propose it again), and per entry between the lowest commit of a member and
 * the longest log (a backlog may go one entry per message, and a joint configuration waits for the
 * slower half: SEED=20720 needs 939 steps).
 */
const stepsPerBacklogEntry = 3;

/**
 * Runs the liveness phase; returns the steps it took, or throws SimViolation('liveness').
 * The bound is `boundSteps` plus stepsPerBacklogEntry per entry still to replicate (see there).
 */
export function runLiveness(c: Cluster, boundSteps: number): number {
  c.chaos = false;
  c.network.heal();
  c.network.faults = calmNetwork;
  c.mix('liveness');
  for (const n of c.nodes) c.restart(n);
  let read: string | undefined;
  let readAskedStep = 0;
  let why = 'not started';
  let retried = '';
  let retriedStep = 0;
  let retryAfterSteps = reproposeSameLeaderSteps;
  const backlog = [...c.accepted].filter((id) => !c.appliedIds.has(id)).length;
  const bound = boundSteps + stepsPerBacklogEntry * (backlog + uncommittedSpread(c));
  for (let i = 0; i < bound; i++) {
    keepMembersUp(c);
    const leader = c.leader();
    const leadership = leader === undefined ? '' : `${leader.id}@${leader.leaderTerm}`;
    if (leader !== undefined && (leadership !== retried || c.now - retriedStep >= retryAfterSteps)) {
      retried = leadership;
      retriedStep = c.now;
      let refused = 0;
      for (const id of [...c.accepted]) if (!c.appliedIds.has(id) && c.propose(leader, id) === undefined) refused++;
      // Refused (the leader's cap on uncommitted bytes): its clients retry after a short pause, as raft-storage's do.
      retryAfterSteps = refused > 0 ? reproposeEverySteps : reproposeSameLeaderSteps;
    }
    c.step();
    const now = c.leader();
    const retry = read !== undefined && !c.answeredReads.has(read) && c.now - readAskedStep >= reproposeEverySteps;
    if ((read === undefined || retry) && now !== undefined && committedOwnTerm(now)) {
      read = c.read(now);
      readAskedStep = c.now;
    }
    why = notLive(c, read) ?? '';
    if (why === '') return i + 1;
  }
  throw new SimViolation('liveness', `not live ${bound} steps after the faults stopped: ${why}`);
}

function notLive(c: Cluster, read: string | undefined): string | null {
  const leader = c.leader();
  if (leader === undefined) return 'no leader';
  const maxTerm = Math.max(...c.nodes.filter((n) => n.alive).map((n) => n.disk.initialState().hardState.term));
  if (maxTerm > leader.leaderTerm) return `leader ${leader.id} has term ${leader.leaderTerm} < ${maxTerm}`;
  if (!committedOwnTerm(leader)) return `leader ${leader.id} has not committed in term ${leader.leaderTerm}`;
  const commit = leader.disk.initialState().hardState.commit;
  for (const id of members(leader)) {
    const n = c.node(id);
    if (!n.alive) return `member ${id} is down`;
    if (n.applied < commit) return `member ${id} applied ${n.applied} < commit ${commit}`;
  }
  for (const id of c.accepted) if (!c.appliedIds.has(id)) return `accepted proposal p${id} never applied`;
  if (read === undefined || !c.answeredReads.has(read)) return `read ${read ?? '(not asked)'} not answered`;
  return null;
}

/** Entries between the lowest commit index of a member (of the most advanced node's membership) and the longest log. */
function uncommittedSpread(c: Cluster): number {
  const latest = mostApplied(c);
  if (latest === undefined) return 0;
  const commits = members(latest).map((id) => c.node(id).disk.initialState().hardState.commit);
  const longest = Math.max(...c.nodes.map((n) => n.disk.lastIndex()));
  return Math.max(0, longest - Math.min(...commits));
}

/** The running node that has applied the most (its membership is the most recent one applied). */
function mostApplied(c: Cluster): SimNode | undefined {
  let latest: SimNode | undefined;
  for (const n of c.nodes) if (n.alive && (latest === undefined || n.applied > latest.applied)) latest = n;
  return latest;
}

function members(n: SimNode): string[] {
  const cs = n.confState;
  return [...new Set([...cs.voters, ...cs.learners, ...cs.votersOutgoing, ...cs.learnersNext])];
}

/**
 * Keeps every node up, except that nodes outside the most recently applied configuration are
 * shut down once every member has applied that same configuration (earlier, a removed node may
 * still be needed: a joint configuration's outgoing half can need its vote).
 */
function keepMembersUp(c: Cluster): void {
  const latest = mostApplied(c);
  const wanted = new Set(latest === undefined ? [] : members(latest));
  const config = latest === undefined ? '' : JSON.stringify(latest.confState);
  const settled = latest !== undefined && [...wanted].every((id) => JSON.stringify(c.node(id).confState) === config);
  for (const n of c.nodes) {
    if (!settled || wanted.has(n.id)) c.restart(n);
    else c.crash(n);
  }
}
