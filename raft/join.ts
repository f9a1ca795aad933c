/**
 * A new node's way into a running group: it asks the seeds (members' peer addresses) to add it
 * as a learner, following a follower's answer to the leader, then asks to be promoted until the
 * leader finds it caught up. Runs in the background of a started node, retrying with backoff,
 * and says what it does through `progress` (one line each, for the operator's log).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { RaftNodeError } from './errors.ts';
import { joinRetryMsMax, joinRetryMsMin } from './limits.ts';
import type { MembershipAnswer, MembershipRequest } from './wire.ts';

/** What the join loop needs of the node. */
export interface JoiningNode {
  readonly id: string;
  /** The address the members reach this node's peer server at. */
  readonly peerAddress: string;
  /** This node's role in the configuration it applied (null: not a member yet). */
  ownRole(): 'voter' | 'learner' | null;
  /** Takes in the cluster id and member addresses of a leader's answer. */
  learn(answer: MembershipAnswer): void;
  ask(address: string, request: MembershipRequest, signal: AbortSignal): Promise<MembershipAnswer>;
}

/** Reports one step of joining. */
export type JoinProgress = (message: string, fields?: Record<string, unknown>) => void;

/** Redirects followed in a row before waiting (two followers naming each other during an election). */
const redirectsInARowMax = 3;

/** Refusals no retry can change: another member holds the name, or the certificate is not the name's. */
const refusedForGood: ReadonlySet<string> = new Set(['AlreadyMember', 'PermissionDenied']);

/**
 * Asks until this node is a voter (resolves with null), or `signal` aborts (null). Never rejects:
 * a failure is reported and retried, except a refusal no retry can change, which ends the loop
 * and is the result (the node will never be a member under this name).
 */
export async function joinGroup(node: JoiningNode, seeds: readonly string[], progress: JoinProgress, signal: AbortSignal): Promise<string | null> {
  if (seeds.length === 0) throw new Error('assert: joining needs at least one seed');
  let seed = 0;
  let target = seeds[0]!;
  let added = node.ownRole() !== null;
  let backoffMs = joinRetryMsMin;
  let redirects = 0;
  const next = async (waitMs: number): Promise<boolean> => {
    try {
      await sleep(waitMs, undefined, { signal });
      return true;
    } catch {
      return false; // aborted: the node stops
    }
  };
  while (!signal.aborted) {
    if (node.ownRole() === 'voter') {
      progress('joined: this node is a voter');
      return null;
    }
    const request: MembershipRequest = added || node.ownRole() === 'learner' ? { kind: 'promote', name: node.id } : { kind: 'join', name: node.id, peerAddress: node.peerAddress };
    let answer: MembershipAnswer;
    try {
      answer = await node.ask(target, request, signal);
    } catch (err) {
      if (signal.aborted) return null;
      const code = err instanceof RaftNodeError ? err.code : 'Error';
      const message = err instanceof Error ? err.message : String(err);
      if (refusedForGood.has(code)) {
        progress(`${request.kind} refused by ${target} (${code}): ${message}; giving up`, { target, code });
        return `${request.kind} refused (${code}): ${message}`;
      }
      if (code === 'LearnerBehind') {
        // Catching up is progress: ask again soon, without growing the wait.
        progress(`not promoted yet: ${message}`, { target });
        if (!(await next(2 * joinRetryMsMin))) return null;
        continue;
      }
      progress(`${request.kind} refused or failed (${code}): ${message}; retrying in ${backoffMs} ms`, { target, code });
      seed = (seed + 1) % seeds.length;
      target = seeds[seed]!;
      if (!(await next(backoffMs))) return null;
      backoffMs = Math.min(2 * backoffMs, joinRetryMsMax);
      continue;
    }
    if (!answer.done) {
      const known = answer.leaderAddress !== '';
      redirects = known ? redirects + 1 : 0;
      progress(known ? `${target} is not the leader: asking the leader ${answer.leaderName} at ${answer.leaderAddress}` : `${target} knows no leader; retrying in ${backoffMs} ms`, { target });
      if (known) target = answer.leaderAddress;
      if (!known || redirects > redirectsInARowMax) {
        redirects = 0;
        if (!(await next(backoffMs))) return null;
        backoffMs = Math.min(2 * backoffMs, joinRetryMsMax);
      }
      continue;
    }
    redirects = 0;
    backoffMs = joinRetryMsMin;
    node.learn(answer);
    if (request.kind === 'join') {
      added = true;
      progress(`added as a learner of cluster ${answer.clusterId} by ${answer.leaderName}; catching up, then asking to be promoted`, { clusterId: answer.clusterId, leader: answer.leaderName });
    } else {
      progress(`promoted to voter by ${answer.leaderName}`, { leader: answer.leaderName });
      return null;
    }
  }
  return null;
}
