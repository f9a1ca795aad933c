import { Counter, Gauge, type Registry } from 'prom-client';
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
  // Totals the node keeps itself; on scrape each counter catches up to it (they never go back).
  const counter = (name: string, help: string, read: () => number): void => {
    let counted = 0;
    new Counter({
      name,
      help,
      registers: [registry],
      collect() {
        const total = read();
        if (total > counted) this.inc(total - counted);
        counted = Math.max(counted, total);
      },
    });
  };
  counter('orch_raft_persist_transactions_total', 'Raft Ready transactions persisted (each one fsync when it carries entries or a vote).', () => raft.metrics().persistTransactions);
  counter('orch_raft_persisted_entries_total', 'Log entries persisted; divided by the transactions, the group-commit factor.', () => raft.metrics().persistedEntries);
  counter('orch_raft_relayed_proposals_total', 'Writes this follower relayed to the leader on the Raft stream, counting each re-relay to a new leader.', () => raft.metrics().relayedProposals);
  counter('orch_raft_forward_batches_total', 'ForwardBatch calls sent to the leader (followers relay on the Raft stream instead; kept for the ForwardBatch API).', () => raft.metrics().forwardBatches);
  counter('orch_raft_forwarded_commands_total', 'Commands forwarded to the leader in ForwardBatch calls; divided by the batches, the forward coalescing factor.', () => raft.metrics().forwardedCommands);
  gauge('orch_raft_is_leader', 'Whether this replica is the Raft leader (1) or not (0).', () => (raft.isLeader() ? 1 : 0));
  gauge('orch_raft_term', 'The current Raft term of this replica.', () => raft.metrics().term);
  gauge('orch_raft_commit_index', 'The highest log index this replica knows to be committed.', () => raft.metrics().commitIndex);
  gauge('orch_raft_applied_index', 'The highest log index this replica applied to its store.', () => raft.metrics().appliedIndex);
  gauge('orch_raft_snapshot_index', 'The log index of the latest snapshot; entries at or below it are compacted.', () => raft.metrics().snapshotIndex);
  gauge('orch_storage_revision', 'The latest store revision this replica applied.', store.revision);
  gauge('orch_storage_compacted_revision', 'The revision history is compacted to on this replica.', store.compactedRevision);
}
