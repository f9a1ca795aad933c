// Measures how long the cluster is unavailable after a fault: from the fault to the first
// successful write and to the first successful consistent read, probing every live replica
// directly (one attempt per request, no client-side failover) every few tens of milliseconds.
import { setTimeout as sleep } from 'node:timers/promises';
import { OrchClient } from '../../internal/client/index.ts';
import { workloadPath } from './workload.ts';

/** The unavailability window after one fault, in ms from the fault (null: no success before the deadline). */
export interface UnavailabilityWindow {
  readonly fault: string;
  readonly writeMs: number | null;
  readonly readMs: number | null;
}

/** Options of `measureUnavailability`. */
export interface ProbeOptions {
  /** Replica URLs to probe (the live ones). */
  readonly servers: readonly string[];
  readonly caPem: string;
  readonly token: string;
  /** Date.now() when the fault happened. */
  readonly faultAtMs: number;
  readonly fault: string;
  readonly deadlineMs: number;
}

const probePauseMs = 25;
let probeCounter = 0;

/** Probes writes and consistent reads until each succeeds once (or the deadline passes). */
export async function measureUnavailability(options: ProbeOptions): Promise<UnavailabilityWindow> {
  const clients = options.servers.map((url) => new OrchClient({ servers: [url], caPem: options.caPem, token: options.token, requestAttemptsMax: 1, requestTimeoutMs: 2_000, userAgent: 'orch-chaos/probe' }));
  try {
    const [writeMs, readMs] = await Promise.all([
      firstSuccess(clients, options, (c) => c.create(workloadPath, probeObject())),
      firstSuccess(clients, options, (c) => c.get(`${workloadPath}/probe-read`).catch((error: unknown) => {
        if ((error as { status?: number }).status !== 404) throw error;
      })),
    ]);
    return { fault: options.fault, writeMs, readMs };
  } finally {
    await Promise.all(clients.map((c) => c.close()));
  }
}

function probeObject(): unknown {
  probeCounter += 1;
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `probe-${process.pid}-${probeCounter}`, labels: { chaos: 'probe' } }, data: { v: 'probe' } };
}

/** Runs one probe loop per replica; resolves with ms from the fault to the first success of any. */
async function firstSuccess(clients: readonly OrchClient[], options: ProbeOptions, call: (client: OrchClient) => Promise<unknown>): Promise<number | null> {
  let result: number | null = null;
  const deadline = options.faultAtMs + options.deadlineMs;
  await Promise.all(clients.map(async (client) => {
    while (result === null && Date.now() < deadline) {
      try {
        await call(client);
        result ??= Date.now() - options.faultAtMs;
        return;
      } catch {
        await sleep(probePauseMs);
      }
    }
  }));
  return result;
}

/** The p-th percentile (0..100) of `values` by nearest rank; null when empty. */
export function percentile(values: readonly number[], p: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
  return sorted[rank - 1] ?? null;
}
