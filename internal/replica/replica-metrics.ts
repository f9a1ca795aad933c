import { Gauge, type Registry } from 'prom-client';
import type { RaftNode } from '../../raft/node.ts';
import { storageGauges } from '../storage/metrics.ts';
import type { Storage } from '../storage/storage.ts';

/**
 * Registers the Raft and storage gauges of one replica on `registry`. Values are read on scrape,
 * so nothing runs between scrapes.
 */
export function registerReplicaGauges(registry: Registry, raft: RaftNode, storage: Storage): void {
  const store = storageGauges(storage);
  const gauge = (name: string, help: string, read: () => number): void => {
    new Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        this.set(read());
      },
    });
  };
  gauge('orch_raft_is_leader', 'Whether this replica is the Raft leader (1) or not (0).', () => (raft.isLeader() ? 1 : 0));
  gauge('orch_raft_term', 'The current Raft term of this replica.', () => raft.metrics().term);
  gauge('orch_raft_commit_index', 'The highest log index this replica knows to be committed.', () => raft.metrics().commitIndex);
  gauge('orch_raft_applied_index', 'The highest log index this replica applied to its store.', () => raft.metrics().appliedIndex);
  gauge('orch_raft_snapshot_index', 'The log index of the latest snapshot; entries at or below it are compacted.', () => raft.metrics().snapshotIndex);
  gauge('orch_storage_revision', 'The latest store revision this replica applied.', store.revision);
  gauge('orch_storage_compacted_revision', 'The revision history is compacted to on this replica.', store.compactedRevision);
}
