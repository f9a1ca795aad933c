// Store level: writes of 1 KiB values and linearizable reads at each concurrency, against any
// store behind the `StoreDriver` interface (etcd's gateway or orch's store shim through the same
// etcd client; orch's full API through ConfigMaps).
import { runClosedLoop, type LoadResult } from './load.ts';
import { configMap, type OrchClient } from './orch-client.ts';
import { ensureNamespace, pickClient, type OrchTarget } from './orch-target.ts';
import type { EtcdJsonClient } from './etcd-client.ts';
import type { ServerTimings } from './server-timings.ts';

/** One store as the store-level benchmark sees it. Operation `seq` picks the member (seq mod N). */
export interface StoreDriver {
  /** Writes a new key `key` with a value of the configured size. */
  write(seq: number, key: string): Promise<void>;
  /** Reads existing key `key` linearizably. */
  read(seq: number, key: string): Promise<void>;
  /** Makes the keys the reads use exist. */
  prepare(readKeys: readonly string[]): Promise<void>;
}

/** What one concurrency level measured. */
export interface StorePoint {
  readonly concurrency: number;
  readonly write: LoadResult;
  readonly read: LoadResult;
  /** What the servers measured of the write point's writes (orch's store only). */
  readonly server?: ServerTimings;
}

/**
 * Runs a write point then a read point at each concurrency, each for `pointMs`, after `warmupMs` of
 * writes and `readWarmupMs` of reads unmeasured. With `takeServerTimings`, what the servers
 * measured during each write point.
 */
export async function runStoreBench(driver: StoreDriver, options: {
  concurrencies: readonly number[];
  pointMs: number;
  readKeys: number;
  warmupMs: number;
  readWarmupMs: number;
  takeServerTimings?: () => Promise<ServerTimings>;
}): Promise<StorePoint[]> {
  const readKeys = Array.from({ length: options.readKeys }, (_, i) => `r-${i}`);
  await driver.prepare(readKeys);
  const warmupConcurrency = 16;
  await runClosedLoop({ concurrency: warmupConcurrency, durationMs: options.warmupMs, op: (seq) => driver.write(seq, `warm-${seq}`) });
  await runClosedLoop({ concurrency: warmupConcurrency, durationMs: options.readWarmupMs, op: (seq) => driver.read(seq, readKeys[seq % readKeys.length] ?? 'r-0') });
  const points: StorePoint[] = [];
  const takeServerTimings = options.takeServerTimings;
  for (const concurrency of options.concurrencies) {
    await takeServerTimings?.(); // drops what came before the point
    const write = await runClosedLoop({ concurrency, durationMs: options.pointMs, op: (seq) => driver.write(seq, `w-${concurrency}-${seq}`) });
    const server = await takeServerTimings?.();
    const read = await runClosedLoop({ concurrency, durationMs: options.pointMs, op: (seq) => driver.read(seq, readKeys[seq % readKeys.length] ?? 'r-0') });
    points.push({ concurrency, write, read, ...(server === undefined ? {} : { server }) });
  }
  return points;
}

/** orch through its HTTPS API: ConfigMap creates and consistent GETs spread over every replica (includes the API layer). */
export function orchStoreDriver(target: OrchTarget, valueBytes: number, namespace = 'bench-store'): StoreDriver {
  const client = (seq: number): OrchClient => pickClient(target, seq);
  const base = `/api/v1/namespaces/${namespace}/configmaps`;
  return {
    async write(seq, key) {
      await client(seq).call('POST', base, configMap(key, valueBytes), [201]);
    },
    async read(seq, key) {
      await client(seq).call('GET', `${base}/${key}`, undefined, [200]);
    },
    async prepare(readKeys) {
      await ensureNamespace(client(0), namespace);
      for (const [i, key] of readKeys.entries()) await client(i).call('POST', base, configMap(key, valueBytes), [201, 409]);
    },
  };
}

/** etcd's v3 JSON gateway calls (etcd itself, or orch's store shim): puts and linearizable ranges spread over every member. */
export function etcdStoreDriver(client: EtcdJsonClient, valueBytes: number): StoreDriver {
  const value = 'x'.repeat(valueBytes);
  return {
    write: (seq, key) => client.put(seq, `/bench/${key}`, value),
    read: (seq, key) => client.get(seq, `/bench/${key}`),
    async prepare(readKeys) {
      for (const [i, key] of readKeys.entries()) await client.put(i, `/bench/${key}`, value);
    },
  };
}
