// The numbers behind the storage gauges; wiring them to prom-client happens in the API layer.
import type { Storage } from './storage.ts';

/** Plain getters for `orch_storage_revision` and `orch_storage_compacted_revision` of one replica. */
export interface StorageGauges {
  /** `orch_storage_revision`: the latest revision this replica applied. */
  revision(): number;
  /** `orch_storage_compacted_revision`: the revision history is compacted to. */
  compactedRevision(): number;
}

/** The gauges of a storage (local numbers, no round trip). */
export function storageGauges(storage: Storage): StorageGauges {
  return {
    revision: () => storage.localRevision(),
    compactedRevision: () => storage.compactedRevision(),
  };
}
