// A single-replica Storage: commands are applied to the state machine immediately, no Raft.
import type { AppliedState } from './applied-state.ts';
import { encodeCommand, type Command, type CommandResult } from './commands.ts';
import { startRetentionCompactor } from './retention-compactor.ts';
import { StateMachineStorage } from './state-machine-storage.ts';

/** Storage over one local state machine; same semantics as the replicated store. */
export class LocalStorage extends StateMachineStorage {
  constructor(state: AppliedState, options: { retentionMs: number; compactionIntervalMs?: number }) {
    super(state, 'local');
    this.compactor = startRetentionCompactor({
      retentionMs: options.retentionMs,
      ...(options.compactionIntervalMs !== undefined ? { intervalMs: options.compactionIntervalMs } : {}),
      shouldRun: () => !state.isClosed(),
      revisionAtOrBefore: (ts) => state.machine.revisionAtOrBefore(ts),
      compactedRevision: () => state.machine.compactedRevision(),
      compact: (rev) => this.compact(rev),
    });
  }

  protected async submit(command: Command): Promise<CommandResult> {
    this.checkOpen();
    const index = this.state.appliedIndex() + 1;
    const outcome = this.state.applyEntries([{ index, data: encodeCommand(command) }]);
    const applied = outcome.applied[0];
    if (applied === undefined) throw new Error('assert: a local command produced no result');
    return applied.result;
  }

  protected async confirmRead(): Promise<void> {
    // One replica: its applied state is the latest.
  }
}
