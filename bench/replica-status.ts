// A replica's Raft progress as /orch/v1/status gives it (docs/operations.md), and the waits the
// failover and scale phases build on it: until a probe answers, until a replica has applied an index.
import type { ReplicaStatus } from '../internal/apiserver/maintenance/backend.ts';
import type { OrchClient } from './orch-client.ts';

/** How often a wait asks again: the resolution of the times measured with it. */
const pollMs = 50;

/** The part of /orch/v1/status the benchmarks read. */
export type ReplicaStatusView = Pick<ReplicaStatus, 'name' | 'role' | 'commitIndex' | 'appliedIndex' | 'snapshotIndex' | 'firstIndex'>;

export async function statusOf(client: Pick<OrchClient, 'call'>): Promise<ReplicaStatusView> {
  return await client.call('GET', '/orch/v1/status') as ReplicaStatusView;
}

/** Asks `probe` every 50 ms until it gives a value; throws with its last error after `deadline` (performance.now()). */
export async function pollUntil<T>(what: string, deadline: number, probe: () => Promise<T | null>): Promise<T> {
  let last = 'no answer yet';
  for (;;) {
    try {
      const value = await probe();
      if (value !== null) return value;
    } catch (error) {
      last = error instanceof Error ? error.message : String(error);
    }
    if (performance.now() > deadline) throw new Error(`${what}: not reached within the phase's time budget (${last})`);
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}

/**
 * Waits until the replica behind `client` has applied index `goal`, and gives its status then.
 * `check` runs before each ask; what it throws becomes the wait's last error (e.g. the process exited).
 */
export function awaitApplied(client: Pick<OrchClient, 'call'>, goal: number, deadline: number, what: string, check?: () => void): Promise<ReplicaStatusView> {
  return pollUntil(what, deadline, async () => {
    check?.();
    const status = await statusOf(client);
    return status.appliedIndex >= goal ? status : null;
  });
}
