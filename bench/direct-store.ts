// orch's replicated store without the API: 3 replicas of RaftStorage (real Raft over gRPC + mTLS,
// SQLite with fsync) in this process, driven through the Storage interface. It separates the cost
// of the store from the cost of the HTTP/JSON/admission layers; all replicas and the load share
// one event loop here, so it is a different (not a better) setting than the 3-process cluster.
import { RaftStorageCluster } from '../test/integration/storage/raft-storage-cluster.ts';
import type { StoreDriver } from './store-bench.ts';
import type { Storage } from '../internal/storage/storage.ts';

/** A started in-process store cluster and its driver; `close` stops the replicas and removes their data. */
export interface DirectStore {
  readonly driver: StoreDriver;
  close(): Promise<void>;
}

/** Starts the 3 in-process replicas; keys go to replica `seq mod 3`. */
export async function startDirectStore(valueBytes: number): Promise<DirectStore> {
  const cluster = await RaftStorageCluster.start();
  const value = new TextEncoder().encode('x'.repeat(valueBytes));
  const replica = (seq: number): Storage => {
    const r = cluster.replicas[seq % cluster.replicas.length];
    if (r === null || r === undefined) throw new Error('assert: direct store replica is not running');
    return r.storage;
  };
  const driver: StoreDriver = {
    async write(seq, key) {
      await replica(seq).create(`/bench/${key}`, value);
    },
    async read(seq, key) {
      const found = await replica(seq).get(`/bench/${key}`, { consistency: 'linearizable' });
      if (found === null) throw new Error(`direct store: ${key} not found`);
    },
    async prepare(readKeys) {
      for (const [i, key] of readKeys.entries()) await replica(i).create(`/bench/${key}`, value);
    },
  };
  return { driver, close: () => cluster.close() };
}
