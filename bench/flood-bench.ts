// What API Priority and Fairness buys a well-behaved client while another floods the servers:
// ConfigMap creates by one service account at a steady concurrency, alone and then while a second
// service account sends slow LISTs (its namespace's ConfigMaps) on many connections, in the same
// run. Both land in the same priority level (workload-low, the service-accounts FlowSchema), in
// flows of their own (ByUser): the flood is queued and refused (429) in its flow, the creates go on.
import { createConfigMaps } from './create-phases.ts';
import type { LoadResult } from './load.ts';
import type { OrchTarget } from './orch-target.ts';
import { killPid, onCleanup } from './cleanup.ts';
import { serviceAccountClients, serviceAccountSession, type ServiceAccountPlace } from './rbac-bench.ts';
import { startListFlooder } from './start-list-flooder.ts';
import { formatNumber, makeRow, ratio, type BenchRow } from './stats.ts';

export interface FloodBenchOptions {
  /** Creates of the well-behaved client, alone and again under the flood. */
  readonly creates: number;
  readonly concurrency: number;
  /** Connections (concurrent LIST loops) of the flooding client, from a process of its own, spread over the replicas. */
  readonly floodConcurrency: number;
  /** ConfigMaps in the flooded namespace (each LIST returns them all). */
  readonly listedObjects: number;
  readonly phaseMsMax: number;
  readonly requestTimeoutMs: number;
}

export interface FloodBenchResult {
  readonly alone: LoadResult;
  readonly flooded: LoadResult;
  /** The flood's LISTs while the creates ran: served, refused with 429, failed otherwise. */
  readonly flood: { readonly served: number; readonly refused: number; readonly failed: number; readonly firstFailure: string | null };
}

/** How long the flood runs before the creates start (its connections open, its queues fill). */
const floodRampMs = 1_000;

const calm: ServiceAccountPlace = { namespace: 'bench-calm', serviceAccount: 'bench-calm' };
const flooder: ServiceAccountPlace = { namespace: 'bench-flood', serviceAccount: 'bench-flooder', configMapVerbs: ['create', 'list'] };

export async function runFloodBench(target: OrchTarget, options: FloodBenchOptions): Promise<FloodBenchResult> {
  const timeouts = { timeoutMs: options.requestTimeoutMs };
  const calmClients = await serviceAccountClients(target, { connections: options.concurrency, ...timeouts }, calm);
  const flooding = await serviceAccountSession(target, { connections: options.concurrency, ...timeouts }, flooder).catch(async (err: unknown) => {
    await Promise.all(calmClients.map((c) => c.close().catch(() => undefined)));
    throw err;
  });
  try {
    const pace = { concurrency: options.concurrency, phaseMsMax: options.phaseMsMax };
    await createConfigMaps(flooding.clients, flooder.namespace, 'listed', options.listedObjects, pace);
    await createConfigMaps(calmClients, calm.namespace, 'warmup', Math.min(options.creates, 300), pace);
    const alone = await createConfigMaps(calmClients, calm.namespace, 'alone', options.creates, pace);
    const flood = startListFlooder({
      urls: target.cluster.replicas.map((r) => `${r.apiUrl}/api/v1/namespaces/${flooder.namespace}/configmaps`),
      token: flooding.token, caPem: target.cluster.caPem, connections: options.floodConcurrency, ms: options.phaseMsMax * 2,
    });
    const removeCleanup = onCleanup(() => killPid(flood.child.pid));
    try {
      await new Promise((resolve) => setTimeout(resolve, floodRampMs));
      const flooded = await createConfigMaps(calmClients, calm.namespace, 'flooded', options.creates, pace).finally(() => flood.stop());
      const counts = await flood.counts;
      const failed = counts.other.reduce((sum, [, n]) => sum + n, 0);
      const firstFailure = counts.other.length > 0 ? `statuses ${counts.other.map(([status, n]) => `${status} x${n}`).join(', ')}` : null;
      return { alone, flooded, flood: { served: counts.served, refused: counts.refused, failed, firstFailure } };
    } finally {
      killPid(flood.child.pid);
      removeCleanup();
    }
  } finally {
    await Promise.all([...calmClients, ...flooding.clients].map((c) => c.close().catch(() => undefined)));
  }
}

export function floodRows(result: FloodBenchResult, concurrency: number, floodConcurrency: number): BenchRow[] {
  return [
    makeRow({ section: 'api', name: `ConfigMap create c=${concurrency}, service account alone`, unit: 'ops/s', orch: result.alone.opsPerSecond }),
    makeRow({ section: 'api', name: `ConfigMap create c=${concurrency}, while another floods ${floodConcurrency} LISTs`, unit: 'ops/s', orch: result.flooded.opsPerSecond }),
    makeRow({ section: 'api', name: `ConfigMap create p99 c=${concurrency}, while another floods`, unit: 'ms', orch: result.flooded.latency.p99Ms }),
  ];
}

/** The flooded creates against the same client alone, and what the flood was answered. */
export function floodNotes(result: FloodBenchResult): string[] {
  const notes = [
    `flood: the well-behaved client's creates at ${formatNumber(ratio(result.flooded.opsPerSecond, result.alone.opsPerSecond))}x its rate alone (p99 ${formatNumber(result.alone.latency.p99Ms)} -> ${formatNumber(result.flooded.latency.p99Ms)} ms); the flood: ${result.flood.served} LISTs served, ${result.flood.refused} refused with 429, ${result.flood.failed} failed otherwise`,
  ];
  const errors = result.alone.errors + result.flooded.errors;
  if (errors > 0) notes.push(`flood: ${errors} create errors (first: ${result.alone.firstError ?? result.flooded.firstError ?? '?'})`);
  if (result.flood.firstFailure !== null) notes.push(`flood: first LIST failure other than 429: ${result.flood.firstFailure}`);
  return notes;
}
