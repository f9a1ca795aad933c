/**
 * One simulation run: a seed fully determines the cluster size (unless given), the fault
 * plan, every random choice of the network, the nodes and the clients. Chaos for `steps`
 * steps with the invariants checked at every event, then the liveness phase.
 */
import type { PlantedBugs } from '../../raft/core/types.ts';
import { Cluster } from './cluster.ts';
import type { ClusterStats } from './cluster.ts';
import { drawFaultPlan } from './faults.ts';
import type { ProfileName } from './faults.ts';
import { SimViolation } from './invariants.ts';
import { runLiveness } from './liveness.ts';
import { Rng } from './rng.ts';
import { scheduleChaos, scheduleForgetLeader } from './schedule.ts';

/** What to run. `nodes` defaults to 3 for even seeds and 5 for odd ones. */
export interface SeedOptions {
  readonly seed: number;
  readonly nodes?: 3 | 5;
  /** Chaos steps (default defaultChaosSteps); the liveness phase comes on top. */
  readonly steps?: number;
  readonly bugs?: PlantedBugs;
  /** Steps the cluster has to become live after the faults stop (default defaultLivenessBoundSteps). */
  readonly livenessBoundSteps?: number;
}

/** The outcome of one seed. Same options, same result, same traceHash. */
export interface SeedResult {
  readonly ok: boolean;
  readonly seed: number;
  readonly nodes: number;
  readonly profile: ProfileName;
  /** What broke and at which step, when !ok. */
  readonly violation?: string;
  readonly traceHash: string;
  readonly stats: ClusterStats & { steps: number; livenessSteps: number };
}

/** Chaos steps per seed by default: sized so that 320 seeds run in well under two minutes on one core. */
export const defaultChaosSteps = 500;
/** Calm steps within which the cluster must be live: 30 election timeouts. */
export const defaultLivenessBoundSteps = 600;

/** Runs one seed; never throws for a violation (it is reported in the result). */
export function runSeed(opts: SeedOptions): SeedResult {
  const rng = new Rng(opts.seed);
  const nodes = opts.nodes ?? (opts.seed % 2 === 0 ? 3 : 5);
  const plan = drawFaultPlan(rng.derive('plan'), nodes);
  const cluster = new Cluster(rng.derive('cluster'), nodes, plan, opts.bugs);
  const schedule = rng.derive('schedule');
  const detector = rng.derive('failure-detector');
  const steps = opts.steps ?? defaultChaosSteps;
  let livenessSteps = 0;
  let violation: string | undefined;
  try {
    for (let i = 0; i < steps; i++) {
      scheduleChaos(cluster, schedule);
      scheduleForgetLeader(cluster, detector);
      cluster.step();
    }
    livenessSteps = runLiveness(cluster, opts.livenessBoundSteps ?? defaultLivenessBoundSteps);
  } catch (e) {
    const what = e instanceof SimViolation ? e.message : `unexpected throw: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`;
    violation = `${what} (step ${cluster.now}, profile ${plan.profile})`;
    cluster.mix(violation);
  }
  return {
    ok: violation === undefined,
    seed: opts.seed,
    nodes,
    profile: plan.profile,
    ...(violation === undefined ? {} : { violation }),
    traceHash: cluster.trace(),
    stats: { ...cluster.stats, steps: cluster.now, livenessSteps },
  };
}
