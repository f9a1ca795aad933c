// The shared shape of the A-B-B-A create benchmarks (RBAC user against admin, webhook against
// none, custom objects against ConfigMaps): creates spread over clients in a closed loop, and two
// halves joined.
import { runClosedLoop, type LoadResult } from './load.ts';
import { configMap, type OrchClient } from './orch-client.ts';

/** One phase's size and pace. */
export interface CreatePhaseOptions {
  readonly concurrency: number;
  readonly phaseMsMax: number;
}

/** `count` creates of `body(<prefix>-<n>)` at `path`, round-robin over `clients`. */
export function createObjects(clients: readonly OrchClient[], path: string, body: (name: string) => unknown, prefix: string, count: number, options: CreatePhaseOptions): Promise<LoadResult> {
  return runClosedLoop({ concurrency: options.concurrency, durationMs: options.phaseMsMax, opsMax: count, op: async (seq) => {
    const client = clients[seq % clients.length];
    if (client === undefined) throw new Error('assert: no client');
    await client.call('POST', path, body(`${prefix}-${seq}`), [201]);
  } });
}

/** `count` ConfigMap creates `<prefix>-<n>` in `namespace`, round-robin over `clients`. */
export function createConfigMaps(clients: readonly OrchClient[], namespace: string, prefix: string, count: number, options: CreatePhaseOptions): Promise<LoadResult> {
  return createObjects(clients, `/api/v1/namespaces/${namespace}/configmaps`, (name) => configMap(name, 256), prefix, count, options);
}

/** Two halves of a side's creates as one result (ops/s over both halves' time; the worse p99). */
export function joinedHalves(a: LoadResult, b: LoadResult): LoadResult {
  const elapsedMs = a.elapsedMs + b.elapsedMs;
  const ops = a.ops + b.ops;
  const slower = a.latency.p99Ms >= b.latency.p99Ms ? a : b;
  return { ops, errors: a.errors + b.errors, firstError: a.firstError ?? b.firstError, elapsedMs, opsPerSecond: elapsedMs > 0 ? (ops * 1000) / elapsedMs : 0, latency: slower.latency };
}

/**
 * `creates` ConfigMap creates in each of two namespaces, A-B-B-A (warm-up creates in both first),
 * so that neither side gets the warmer half of the run; each side's halves joined.
 */
export async function alternatedConfigMapCreates(clients: readonly OrchClient[], namespaces: { readonly a: string; readonly b: string }, creates: number, options: CreatePhaseOptions): Promise<{ a: LoadResult; b: LoadResult }> {
  const half = Math.ceil(creates / 2);
  await createConfigMaps(clients, namespaces.a, 'warmup', Math.min(half, 300), options);
  await createConfigMaps(clients, namespaces.b, 'warmup', Math.min(half, 300), options);
  const a1 = await createConfigMaps(clients, namespaces.a, 'a', half, options);
  const b1 = await createConfigMaps(clients, namespaces.b, 'a', half, options);
  const b2 = await createConfigMaps(clients, namespaces.b, 'b', creates - half, options);
  const a2 = await createConfigMaps(clients, namespaces.a, 'b', creates - half, options);
  return { a: joinedHalves(a1, a2), b: joinedHalves(b1, b2) };
}
