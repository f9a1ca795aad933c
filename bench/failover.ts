// Failover: SIGKILL the Raft leader, then write through the surviving replicas until one write
// succeeds. The time is from the kill to that write's answer.
import { configMap } from './orch-client.ts';
import { ensureNamespace, findLeader, pickClient, type OrchTarget } from './orch-target.ts';

/** What the failover measured. */
export interface FailoverResult {
  readonly killed: string;
  readonly msToFirstWrite: number;
  readonly attempts: number;
}

/** Kills the leader (found by /metrics) and times the first successful write; throws after `msMax`. */
export async function runFailover(target: OrchTarget, options: { msMax: number; attemptTimeoutMs: number }): Promise<FailoverResult> {
  const namespace = 'bench-failover';
  const base = `/api/v1/namespaces/${namespace}/configmaps`;
  await ensureNamespace(pickClient(target, 0), namespace);
  const leader = await findLeader(target);
  if (leader === null) throw new Error('no replica reports orch_raft_is_leader 1');
  const killed = target.cluster.replicas[leader]?.spec.name ?? '?';
  const survivors = target.clients.filter((_, i) => i !== leader);
  const start = performance.now();
  target.cluster.signal(killed, 'SIGKILL');
  let attempts = 0;
  let lastError = '';
  while (performance.now() - start < options.msMax) {
    const client = survivors[attempts % survivors.length];
    if (client === undefined) throw new Error('assert: no surviving replica');
    attempts++;
    try {
      await withTimeout(client.call('POST', base, configMap(`f-${attempts}`, 1024), [201]), options.attemptTimeoutMs);
      return { killed, msToFirstWrite: performance.now() - start, attempts };
    } catch (error) {
      lastError = error instanceof Error ? error.message : String(error);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }
  throw new Error(`no write succeeded within ${options.msMax} ms after killing ${killed}: ${lastError}`);
}

async function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`attempt timed out after ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
