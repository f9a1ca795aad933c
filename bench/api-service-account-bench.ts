// ConfigMap creates through the whole API as a client that is not an admin: a service account whose
// TokenRequest token is checked on every request (authentication), whose create RBAC decides (a
// Role and RoleBinding in its namespace; system:masters would skip RBAC) and which the default
// admission chain sees. One point at the store's concurrency for it (64), 1 KiB values as the
// store points write, so it can be set against orch's store at the same concurrency.
import { runClosedLoop, type LoadResult } from './load.ts';
import { configMap } from './orch-client.ts';
import type { OrchTarget } from './orch-target.ts';
import { benchServiceAccount, serviceAccountClients } from './rbac-bench.ts';
import { makeRow, type BenchRow } from './stats.ts';

/** Bounds of the point. */
export interface ServiceAccountPointOptions {
  readonly concurrency: number;
  readonly valueBytes: number;
  /** The measured point's length, after `warmupMs` of the same creates unmeasured. */
  readonly pointMs: number;
  readonly warmupMs: number;
  readonly requestTimeoutMs: number;
}

/** What the point measured. */
export interface ServiceAccountPoint {
  readonly concurrency: number;
  readonly create: LoadResult;
}

/** The row's name; the target line finds it by this. */
export const serviceAccountCreateRow = (c: number): string => `ConfigMap create throughput c=${c}, service account (token, RBAC, admission)`;

/** Sets up the service account (bench/rbac-bench.ts), waits until every replica lets it create, and runs the point. */
export async function runServiceAccountPoint(target: OrchTarget, options: ServiceAccountPointOptions): Promise<ServiceAccountPoint> {
  const clients = await serviceAccountClients(target, { connections: options.concurrency, timeoutMs: options.requestTimeoutMs });
  const base = `/api/v1/namespaces/${benchServiceAccount.namespace}/configmaps`;
  const create = (prefix: string) => async (seq: number): Promise<void> => {
    await clients[seq % clients.length]?.call('POST', base, configMap(`${prefix}-${seq}`, options.valueBytes), [201]);
  };
  try {
    await runClosedLoop({ concurrency: options.concurrency, durationMs: options.warmupMs, op: create(`sa${options.concurrency}-warm`) });
    return { concurrency: options.concurrency, create: await runClosedLoop({ concurrency: options.concurrency, durationMs: options.pointMs, op: create(`sa${options.concurrency}`) }) };
  } finally {
    await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
  }
}

/** Throughput, p50 and p99 of the point (no etcd column: its reference is orch's own store, in the target line). */
export function serviceAccountRows(point: ServiceAccountPoint): BenchRow[] {
  const c = point.concurrency;
  return [
    makeRow({ section: 'api', name: serviceAccountCreateRow(c), unit: 'ops/s', orch: point.create.opsPerSecond }),
    makeRow({ section: 'api', name: `ConfigMap create p50 c=${c}, service account`, unit: 'ms', orch: point.create.latency.p50Ms }),
    makeRow({ section: 'api', name: `ConfigMap create p99 c=${c}, service account`, unit: 'ms', orch: point.create.latency.p99Ms }),
  ];
}
