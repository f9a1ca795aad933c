// An in-process fake of the Raft group for storage tests: one shared log array applied to every
// replica's state machine (the leader at once, followers a moment later), with relaying and
// ReadIndex semantics of the real thing.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openReplicatedStorage } from '../../../internal/storage/open-replicated-storage.ts';
import type { ReplicatedStorage } from '../../../internal/storage/replicated-storage.ts';
import { NotAppendedError, type ReplicationLog } from '../../../internal/storage/replication-log.ts';

/** Options of the fake cluster. */
export interface FakeClusterOptions {
  readonly replicas?: number;
  readonly retentionMs?: number;
  readonly watchBufferEventsMax?: number;
  /** Delay before followers apply what the leader applied. */
  readonly followerLagMs?: number;
  /** How long a follower waits for a relayed write before relaying it again (default 50 ms here). */
  readonly relayAttemptTimeoutMs?: number;
}

interface Replica {
  storage: ReplicatedStorage;
  readonly dataDir: string;
  waiters: { index: number; resolve: () => void }[];
  pumping: boolean;
}

/** A fake 3-replica group sharing one log. */
export class FakeCluster {
  /** The committed log; entry i (1-based) is `log[i - 1]`. */
  readonly log: Uint8Array[] = [];
  leader = 0;
  /** When set, the next proposal is appended but its proposer is told it was dropped (a lost leader's answer). */
  dropNextAnswer = false;
  /** When set, followers' relays are refused before reaching the log (NotAppendedError). */
  refuseRelays = false;
  /** How many of the next relays are lost on the way to the leader (Infinity: all of them). */
  relaysToLose = 0;
  private readonly replicas: Replica[] = [];
  private readonly root = mkdtempSync(join(tmpdir(), 'orch-fake-cluster-'));

  private constructor(private readonly options: FakeClusterOptions) {}

  /** Starts the replicas, each on its own data directory. */
  static async start(options: FakeClusterOptions = {}): Promise<FakeCluster> {
    const cluster = new FakeCluster(options);
    for (let id = 0; id < (options.replicas ?? 3); id += 1) {
      const dataDir = join(cluster.root, `r${id}`);
      cluster.replicas.push({ storage: await cluster.open(id, dataDir), dataDir, waiters: [], pumping: false });
    }
    return cluster;
  }

  /** The storage of replica `id`. */
  storage(id: number): ReplicatedStorage {
    return (this.replicas[id] as Replica).storage;
  }

  /** Closes replica `id` and reopens it from its data directory; it catches up from the log. */
  async restart(id: number): Promise<ReplicatedStorage> {
    const replica = this.replicas[id] as Replica;
    await replica.storage.close();
    replica.storage = await this.open(id, replica.dataDir);
    this.pump(id);
    return replica.storage;
  }

  /** Appends a command to the log and applies it on every replica (the leader synchronously). */
  append(data: Uint8Array): number {
    this.log.push(data);
    const index = this.log.length;
    this.pump(this.leader);
    const lagMs = this.options.followerLagMs ?? 1;
    for (let id = 0; id < this.replicas.length; id += 1) {
      if (id !== this.leader) setTimeout(() => this.pump(id), lagMs);
    }
    return index;
  }

  /** Resolves once replica `id` applied `index`. */
  appliedAtLeast(id: number, index: number): Promise<void> {
    const replica = this.replicas[id] as Replica;
    if (replica.storage.stateMachine.appliedIndex() >= index) return Promise.resolve();
    return new Promise((resolve) => replica.waiters.push({ index, resolve }));
  }

  /** Applies every log entry replica `id` has not applied yet, in one batch. */
  pump(id: number): void {
    const replica = this.replicas[id] as Replica;
    const machine = replica.storage.stateMachine;
    const from = machine.appliedIndex();
    if (from < this.log.length) {
      try {
        machine.applyEntries(this.log.slice(from).map((data, i) => ({ index: from + i + 1, data })));
      } catch (error) {
        if (!String(error).includes('database connection is not open')) throw error;
        return; // closed for a restart
      }
    }
    const applied = machine.appliedIndex();
    const ready = replica.waiters.filter((w) => w.index <= applied);
    replica.waiters = replica.waiters.filter((w) => w.index > applied);
    for (const w of ready) w.resolve();
  }

  /** Closes every replica and removes the data. */
  async stop(): Promise<void> {
    for (const replica of this.replicas) await replica.storage.close();
    rmSync(this.root, { recursive: true, force: true });
  }

  private async open(id: number, dataDir: string): Promise<ReplicatedStorage> {
    const storage = await openReplicatedStorage({
      dataDir,
      replicaName: `r${id}`,
      ...(this.options.retentionMs !== undefined ? { retentionMs: this.options.retentionMs } : {}),
      ...(this.options.watchBufferEventsMax !== undefined ? { watchBufferEventsMax: this.options.watchBufferEventsMax } : {}),
      relayAttemptTimeoutMs: this.options.relayAttemptTimeoutMs ?? 50,
    });
    storage.attach(new FakeLog(this, id));
    return storage;
  }
}

class FakeLog implements ReplicationLog {
  constructor(
    private readonly cluster: FakeCluster,
    private readonly id: number,
  ) {}

  isLeader(): boolean {
    return this.cluster.leader === this.id;
  }

  async propose(data: Uint8Array): Promise<void> {
    if (!this.isLeader()) throw new NotAppendedError('not the leader');
    const index = this.cluster.append(data);
    if (this.cluster.dropNextAnswer) {
      this.cluster.dropNextAnswer = false;
      throw new NotAppendedError('proposal dropped');
    }
    await this.cluster.appliedAtLeast(this.id, index);
  }

  proposeViaLeader(data: Uint8Array): { settle(): void } {
    // As the Raft glue (raft-storage.ts): a refusal before the core is NotAppendedError.
    if (this.cluster.refuseRelays) throw new NotAppendedError('relay refused');
    if (this.cluster.relaysToLose > 0) this.cluster.relaysToLose -= 1;
    else setImmediate(() => this.cluster.append(data)); // a network hop to the leader
    return { settle: () => undefined };
  }

  async readIndex(): Promise<void> {
    await this.cluster.appliedAtLeast(this.id, this.cluster.log.length);
  }
}
