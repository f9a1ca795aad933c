import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { RaftNode, RaftTimings } from '../../raft/node.ts';
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
  counter('orch_raft_dropped_relayed_proposals_total', 'Writes relayed to this replica that it dropped (not the leader, or past its cap on uncommitted bytes); their followers relay them again.', () => raft.metrics().droppedRelayedProposals);
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

/** From 0.1 ms (a log fsync on a fast disk) to 2.5 s (a stalled one): etcd's 1 ms floor hides most of this range. */
const durationBuckets = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];

/**
 * Registers the Raft driver's duration histograms on `registry`; hand the result to the Raft node
 * (`timings`). Between them they say where a write's time goes: the log's fsync, the wait for a
 * quorum, and the store's apply.
 */
export function registerRaftTimings(registry: Registry): RaftTimings {
  const histogram = (name: string, help: string): Histogram => new Histogram({ name, help, buckets: durationBuckets, registers: [registry] });
  const fsync = histogram('orch_raft_log_fsync_duration_seconds', 'One fdatasync of the Raft log (every Ready that appends entries or changes the vote), until the event loop takes its end.');
  const commit = histogram(
    'orch_raft_proposal_commit_duration_seconds',
    'A write this replica proposed as leader, from propose() to its commit (its fsync, a quorum\'s and the round trip); writes relayed by followers are not counted, so followers observe none.',
  );
  const apply = histogram('orch_raft_apply_duration_seconds', "One Ready's committed entries applied to the store.");
  return {
    logSynced: (seconds) => fsync.observe(seconds),
    committed: (seconds) => commit.observe(seconds),
    applied: (seconds) => apply.observe(seconds),
  };
}
