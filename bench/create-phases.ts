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

/** One side of an A-B-B-A comparison: who creates, in which namespace, and its objects' name prefix. */
export interface CreateSide {
  readonly clients: readonly OrchClient[];
  readonly namespace: string;
  readonly prefix: string;
}

/**
 * `creates` ConfigMap creates by each side, A-B-B-A (warm-up creates by both first), so that
 * neither side gets the warmer half of the run; each side's halves joined.
 */
export async function alternatedCreates(a: CreateSide, b: CreateSide, creates: number, options: CreatePhaseOptions): Promise<{ a: LoadResult; b: LoadResult }> {
  const half = Math.ceil(creates / 2);
  const run = (side: CreateSide, name: string, count: number) => createConfigMaps(side.clients, side.namespace, `${side.prefix}${name}`, count, options);
  await run(a, 'warmup', Math.min(half, 300));
  await run(b, 'warmup', Math.min(half, 300));
  const a1 = await run(a, 'a', half);
  const b1 = await run(b, 'a', half);
  const b2 = await run(b, 'b', creates - half);
  const a2 = await run(a, 'b', creates - half);
  return { a: joinedHalves(a1, a2), b: joinedHalves(b1, b2) };
}

/** alternatedCreates by the same clients in each of two namespaces. */
export function alternatedConfigMapCreates(clients: readonly OrchClient[], namespaces: { readonly a: string; readonly b: string }, creates: number, options: CreatePhaseOptions): Promise<{ a: LoadResult; b: LoadResult }> {
  return alternatedCreates({ clients, namespace: namespaces.a, prefix: '' }, { clients, namespace: namespaces.b, prefix: '' }, creates, options);
}
