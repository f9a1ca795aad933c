// API level against the 3-replica orch cluster: create, update, get and list N ConfigMaps, with
// the replicas' peak memory over those phases; then create N realistic Pods at the same
// concurrency, so that a Pod's per-request cost (schema walk, defaults, validation) shows next to
// a ConfigMap's.
import { runClosedLoop, type LoadResult } from './load.ts';
import { configMap, resourceVersionOf } from './orch-client.ts';
import { benchPod } from './pod-body.ts';
import { ensureNamespace, peakMemoryMiB, pickClient, resetPeakMemory, type OrchTarget } from './orch-target.ts';
import { percentile } from './stats.ts';

/** What one object count measured. */
export interface ApiPoint {
  readonly count: number;
  readonly create: LoadResult;
  readonly update: LoadResult;
  readonly get: LoadResult;
  /** `count` Pod creates (benchPod) at the same concurrency, after every count's ConfigMap phases and memory reading. */
  readonly podCreate: LoadResult;
  /** p50 of one full (unpaginated) list, taken once from each replica. */
  readonly listMs: number;
  readonly listedItems: number;
  /** Largest VmHWM among replicas over the phases of this count (since a reset when `peakReset`). */
  readonly peakMemoryMiB: number | null;
  readonly peakReset: boolean;
}

/** Options of the API-level run. */
export interface ApiBenchOptions {
  readonly counts: readonly number[];
  readonly concurrency: number;
  readonly valueBytes: number;
  /** Bound on each phase (create, update, get) of one count. */
  readonly phaseMsMax: number;
  /** performance.now() after which no loop runs on: each loop is cut to the time left (the rows then show fewer operations). */
  readonly deadline?: number;
}

/** A loop's duration: `phaseMsMax`, or less when the deadline is nearer (at least 1 ms, so the loop ends at once). */
function loopMs(options: ApiBenchOptions): number {
  const left = options.deadline === undefined ? Infinity : options.deadline - performance.now();
  return Math.max(1, Math.min(options.phaseMsMax, left));
}

/**
 * Runs the ConfigMap phases for each count in its own namespace, so a list returns exactly `count`
 * items; then, for each count, the Pod creates. The Pods come after every memory reading: the heap
 * they grow would otherwise raise the next count's peak RSS (a reset only brings the peak down to
 * the current RSS).
 */
export async function runApiBench(target: OrchTarget, options: ApiBenchOptions): Promise<ApiPoint[]> {
  const points: Omit<ApiPoint, 'podCreate'>[] = [];
  for (const count of options.counts) points.push(await runConfigMapPoint(target, count, options));
  const withPods: ApiPoint[] = [];
  for (const point of points) withPods.push({ ...point, podCreate: await runPodCreates(target, point.count, options) });
  return withPods;
}

/** `count` Pod creates (benchPod) at the bench's concurrency, in the count's namespace. */
async function runPodCreates(target: OrchTarget, count: number, options: ApiBenchOptions): Promise<LoadResult> {
  const namespace = `bench-api-${count}`;
  return runClosedLoop({ concurrency: options.concurrency, durationMs: loopMs(options), opsMax: count, op: async (seq) => {
    await pickClient(target, seq).call('POST', `/api/v1/namespaces/${namespace}/pods`, benchPod(`p-${seq}`), [201]);
  } });
}

async function runConfigMapPoint(target: OrchTarget, count: number, options: ApiBenchOptions): Promise<Omit<ApiPoint, 'podCreate'>> {
  const namespace = `bench-api-${count}`;
  const base = `/api/v1/namespaces/${namespace}/configmaps`;
  await ensureNamespace(pickClient(target, 0), namespace);
  const peakReset = resetPeakMemory(target);
  const versions = new Map<number, string>();
  const loop = (): { concurrency: number; durationMs: number; opsMax: number } => ({ concurrency: options.concurrency, durationMs: loopMs(options), opsMax: count });
  const create = await runClosedLoop({ ...loop(), op: async (seq) => {
    versions.set(seq, resourceVersionOf(await pickClient(target, seq).call('POST', base, configMap(`o-${seq}`, options.valueBytes), [201])));
  } });
  const update = await runClosedLoop({ ...loop(), op: async (seq) => {
    const rv = versions.get(seq);
    if (rv === undefined) throw new Error(`o-${seq} was not created`);
    // New data: an update that changes nothing is a no-op the server answers without writing.
    const answer = await pickClient(target, seq).call('PUT', `${base}/o-${seq}`, configMap(`o-${seq}`, options.valueBytes, rv, 'u'), [200]);
    if (resourceVersionOf(answer) === rv) throw new Error(`the update of o-${seq} wrote nothing`);
  } });
  const get = await runClosedLoop({ ...loop(), op: async (seq) => {
    await pickClient(target, seq).call('GET', `${base}/o-${seq}`, undefined, [200]);
  } });
  const listTimes: number[] = [];
  let listedItems = 0;
  for (const client of target.clients) {
    const t0 = performance.now();
    const list = await client.call('GET', base, undefined, [200]) as { items?: unknown[] };
    listTimes.push(performance.now() - t0);
    listedItems = list.items?.length ?? 0;
  }
  return { count, create, update, get, listMs: percentile(listTimes, 50), listedItems, peakMemoryMiB: peakMemoryMiB(target), peakReset };
}
