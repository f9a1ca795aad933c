/**
 * The chaos schedule: each step, draws from the seed's schedule stream which faults and
 * client actions happen (crash, restart, partition, heal, propose, read, transfer,
 * membership change, compaction), at the rates of the seed's FaultPlan.
 */
import type { ConfChangeSingle } from '../../raft/core/types.ts';
import type { Cluster } from './cluster.ts';
import type { Rng } from './rng.ts';
import type { SimNode } from './sim-node.ts';

/** Applies this step's faults and client actions to the cluster (call before cluster.step()). */
export function scheduleChaos(c: Cluster, rng: Rng): void {
  const p = c.plan;
  const leader = c.leader();
  const alive = c.nodes.filter((n) => n.alive);
  const down = c.nodes.filter((n) => !n.alive);
  if (rng.chance(p.crash) && down.length < p.downMax && alive.length > 0) {
    if (leader !== undefined && rng.chance(p.crashLeaderBias)) c.crash(leader);
    else if (p.crashLeaderBias < 1) c.crash(rng.pick(alive));
  }
  const voters = c.nodes.slice(0, -1);
  const stillDown = voters.filter((n) => !n.alive);
  if (p.keepQuorumUp && voters.length - stillDown.length <= voters.length / 2 && stillDown.length > 0) {
    c.restart(rng.pick(stillDown));
  }
  if (leader !== undefined && !committedOwnTerm(leader) && rng.chance(p.crashFreshLeader)) c.crash(leader);
  for (const n of down) if (rng.chance(p.restart)) c.restart(n);
  if (rng.chance(p.partition)) partition(c, rng);
  if (c.network.cutLinkCount() > 0 && rng.chance(p.heal)) {
    c.network.heal();
    c.mix('heal');
  }
  clientActions(c, rng, leader);
  for (const n of c.nodes) if (n.alive && rng.chance(p.compact)) c.compact(n, rng.int(4));
}

/**
 * A failure detector's verdicts (raft/node.ts forgets a leader whose connection closed): a node
 * whose leader is down is told so with probability 1/2 a step, as its connection closes; at the
 * plan's rate, any live node is told so, rightly or not. From a stream of its own (`rng`), so that
 * the chaos schedule of a seed stays what it was.
 */
export function scheduleForgetLeader(c: Cluster, rng: Rng): void {
  if (c.plan.forgetLeader === 0) return;
  for (const n of c.nodes) {
    const lead = n.lead === '' ? undefined : c.nodes.find((m) => m.id === n.lead);
    if (n.alive && lead !== undefined && !lead.alive && rng.chance(0.5)) c.forgetLeader(n);
  }
  const alive = c.nodes.filter((n) => n.alive);
  if (alive.length > 0 && rng.chance(c.plan.forgetLeader)) c.forgetLeader(rng.pick(alive));
}

/** Whether a leader's commit index has reached an entry of its own term. */
export function committedOwnTerm(leader: SimNode): boolean {
  const commit = leader.disk.initialState().hardState.commit;
  return commit >= leader.disk.firstIndex() - 1 && leader.disk.term(commit) === leader.leaderTerm;
}

function clientActions(c: Cluster, rng: Rng, leader: SimNode | undefined): void {
  const p = c.plan;
  const alive = c.nodes.filter((n) => n.alive);
  if (alive.length === 0) return;
  if (rng.chance(p.propose)) c.propose(leader !== undefined && rng.chance(p.proposeAtLeaderBias) ? leader : rng.pick(alive));
  if (rng.chance(p.read)) c.read(rng.pick(alive));
  if (leader === undefined || !leader.alive) return;
  const others = leader.confState.voters.filter((v) => v !== leader.id);
  if (rng.chance(p.transfer) && others.length > 0) c.transfer(leader, rng.pick(others));
  if (rng.chance(p.confChange)) changeMembership(c, rng, leader);
}

/**
 * Cycles membership: add a non-member as learner, promote a learner, remove or demote a voter (the
 * leader too, which steps down once it applies the change), or replace a voter in one joint change
 * (enter C_old,new, left automatically) by removing or demoting it.
 */
function changeMembership(c: Cluster, rng: Rng, leader: SimNode): void {
  const cs = leader.confState;
  const nonMembers = c.nodes.filter((n) => !cs.voters.includes(n.id) && !cs.learners.includes(n.id)).map((n) => n.id);
  const followers = cs.voters.filter((v) => v !== leader.id);
  const canShrink = cs.voters.length > c.nodes.length - 2;
  const options: (() => void)[] = [];
  const change = (...changes: ConfChangeSingle[]) => () => c.changeMembership(leader, changes);
  if (nonMembers.length > 0) options.push(change({ type: 'addLearner', nodeId: rng.pick(nonMembers) }));
  if (cs.learners.length > 0) options.push(change({ type: 'addVoter', nodeId: rng.pick(cs.learners) }));
  if (canShrink && followers.length > 0) options.push(change({ type: 'removeNode', nodeId: rng.pick(followers) }));
  if (canShrink) {
    options.push(change({ type: 'addLearner', nodeId: rng.pick(cs.voters) }));
    options.push(change({ type: rng.pick(['removeNode', 'addLearner'] as const), nodeId: leader.id }));
  }
  const incoming = [...cs.learners, ...nonMembers];
  if (incoming.length > 0 && cs.votersOutgoing.length === 0) {
    const outgoing = rng.pick(rng.chance(0.5) && followers.length > 0 ? followers : cs.voters);
    options.push(change({ type: 'addVoter', nodeId: rng.pick(incoming) }, { type: rng.pick(['removeNode', 'addLearner'] as const), nodeId: outgoing }));
  }
  if (options.length > 0) rng.pick(options)();
}

function partition(c: Cluster, rng: Rng): void {
  const ids = c.nodes.map((n) => n.id);
  const kind = rng.pick(['split', 'oneWay', 'isolateLeader'] as const);
  const leader = c.leader();
  if (kind === 'isolateLeader' && leader !== undefined) {
    c.network.partition([leader.id], ids.filter((id) => id !== leader.id));
  } else if (kind === 'oneWay') {
    const from = rng.pick(ids);
    const to = rng.pick(ids.filter((id) => id !== from));
    c.network.cutLink(from, to);
  } else {
    const shuffled = shuffle(ids, rng);
    const k = 1 + rng.int(shuffled.length - 1);
    c.network.partition(shuffled.slice(0, k), shuffled.slice(k));
  }
  c.mix(`partition ${kind}`);
}

function shuffle<T>(items: readonly T[], rng: Rng): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = rng.int(i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}
