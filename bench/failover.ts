// Failover, repeated: find the Raft leader, SIGKILL it, time until the first write a surviving
// replica acknowledges; then restart the killed replica and wait until it is ready and has applied
// what the cluster committed, so every kill starts from a whole, caught-up cluster. Stops early,
// with the kills done so far, when the phase's budget would not hold one more.
import { configMap, type OrchClient } from './orch-client.ts';
import { ensureNamespace, findLeader, pickClient, type OrchTarget } from './orch-target.ts';
import { awaitApplied, pollUntil, statusOf } from './replica-status.ts';
import { summarize, type LatencySummary } from './stats.ts';
import { stopReplica } from '../internal/cluster/local-cluster.ts';

/** One kill: who, how long until the first acknowledged write, and how long the restart and catch-up took. */
export interface FailoverKill {
  readonly killed: string;
  readonly msToFirstWrite: number;
  /** Writes started (over both survivors) until the first was acknowledged. */
  readonly attempts: number;
  /** From the restart of the killed replica to it being ready and caught up. */
  readonly msToCaughtUp: number;
}

/** What the failover phase measured. */
export interface FailoverResult {
  readonly planned: number;
  readonly kills: readonly FailoverKill[];
  /** Over every kill's msToFirstWrite. */
  readonly toFirstWrite: LatencySummary;
  /** Why the phase did fewer kills than planned, or null. */
  readonly stoppedEarly: string | null;
}

/** The phase's bounds. */
export interface FailoverOptions {
  readonly kills: number;
  /** performance.now() after which no kill starts (and a restart stops waiting). */
  readonly deadline: number;
  /** Bound on one kill's wait for an acknowledged write. */
  readonly writeMsMax: number;
  /** Bound on a restarted replica's wait to be ready and caught up. */
  readonly catchUpMsMax: number;
}

/** Space between the writes started while no survivor acknowledges one (earlier ones stay in flight). */
const attemptSpacingMs = 25;
/** Writes in flight at most while waiting for the first acknowledgement. */
const attemptsInFlightMax = 80;
const namespace = 'bench-failover';

/** Kills the leader `options.kills` times (fewer when the deadline comes first or a kill fails: `stoppedEarly` says which). */
export async function runFailover(target: OrchTarget, options: FailoverOptions): Promise<FailoverResult> {
  await ensureNamespace(pickClient(target, 0), namespace);
  const kills: FailoverKill[] = [];
  let slowestCycleMs = 0;
  let stoppedEarly: string | null = null;
  for (let k = 0; k < options.kills; k++) {
    const remaining = options.deadline - performance.now();
    // The next cycle is assumed as slow as the slowest so far; the first always runs.
    if (k > 0 && remaining < slowestCycleMs * 1.2) {
      stoppedEarly = `budget spent after ${k} of ${options.kills} kills (a cycle takes up to ${Math.round(slowestCycleMs / 1000)} s)`;
      break;
    }
    const cycleStart = performance.now();
    try {
      kills.push(await killOnce(target, k, options));
    } catch (error) {
      // The kills done so far still count; the cluster may be short of a replica now, so no more.
      stoppedEarly = `kill ${k + 1} failed: ${error instanceof Error ? error.message : String(error)}`;
      break;
    }
    slowestCycleMs = Math.max(slowestCycleMs, performance.now() - cycleStart);
  }
  return { planned: options.kills, kills, toFirstWrite: summarize(kills.map((k) => k.msToFirstWrite)), stoppedEarly };
}

async function killOnce(target: OrchTarget, k: number, options: FailoverOptions): Promise<FailoverKill> {
  const leaderDeadline = performance.now() + Math.min(10_000, Math.max(1_000, options.deadline - performance.now()));
  const leader = await pollUntil('a replica reporting orch_raft_is_leader 1', leaderDeadline, () => findLeader(target));
  const replica = target.cluster.replicas[leader];
  if (replica === undefined) throw new Error('assert: leader index out of range');
  const killed = replica.spec.name;
  const survivors = target.clients.filter((_, i) => i !== leader);
  const start = performance.now();
  // SIGKILL now; the exit (seen by the launcher, which may then start the replica again) is awaited after the write.
  const exited = stopReplica(replica, 0);
  const { attempts } = await firstAcknowledgedWrite(survivors, `f-${k}`, options.writeMsMax);
  const msToFirstWrite = performance.now() - start;
  await exited;
  const restartedAt = performance.now();
  target.cluster.restart(killed);
  await target.cluster.waitReady([killed], options.catchUpMsMax);
  await awaitCaughtUp(target.clients[leader] as OrchClient, survivors, restartedAt + options.catchUpMsMax);
  return { killed, msToFirstWrite, attempts, msToCaughtUp: performance.now() - restartedAt };
}

/**
 * Starts a write every `attemptSpacingMs` over the survivors, without waiting for earlier ones (a
 * write sent to a replica whose leader just died may hang until it learns of a new one), and
 * resolves at the first acknowledgement. Writes still in flight then finish or fail unobserved.
 */
export function firstAcknowledgedWrite(survivors: readonly Pick<OrchClient, 'call'>[], prefix: string, msMax: number): Promise<{ attempts: number }> {
  return new Promise((resolve, reject) => {
    let attempts = 0;
    let inFlight = 0;
    let done = false;
    let lastError = '';
    const started = performance.now();
    const finish = (error: Error | null): void => {
      if (done) return;
      done = true;
      clearInterval(timer);
      if (error === null) resolve({ attempts });
      else reject(error);
    };
    const attempt = (): void => {
      if (done) return;
      if (performance.now() - started > msMax) return finish(new Error(`no write acknowledged within ${msMax} ms of the kill: ${lastError}`));
      if (inFlight >= attemptsInFlightMax) return;
      const client = survivors[attempts % survivors.length];
      if (client === undefined) return finish(new Error('assert: no surviving replica'));
      attempts++;
      inFlight++;
      client.call('POST', `/api/v1/namespaces/${namespace}/configmaps`, configMap(`${prefix}-${attempts}`, 1024), [201]).then(
        () => finish(null),
        (error: unknown) => { lastError = error instanceof Error ? error.message : String(error); },
      ).finally(() => { inFlight--; });
    };
    const timer = setInterval(attempt, attemptSpacingMs);
    attempt();
  });
}

/** Waits until the restarted replica has applied what the survivors had committed when it became ready. */
async function awaitCaughtUp(restarted: OrchClient, survivors: readonly OrchClient[], deadline: number): Promise<void> {
  const commits = await Promise.all(survivors.map((c) => statusOf(c).then((s) => s.commitIndex, () => null)));
  const goal = Math.max(0, ...commits.filter((c): c is number => c !== null));
  await awaitApplied(restarted, goal, deadline, `the restarted replica applying index ${goal}`);
}
