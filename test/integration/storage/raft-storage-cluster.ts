// A 3-replica replicated store over real RaftNodes (gRPC + mutual TLS on 127.0.0.1), in process.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureClusterPki, type ClusterPki } from '../../../internal/certificates/index.ts';
import { openRaftStorage, type RaftStorage } from '../../../internal/storage/raft-storage.ts';
import { freePorts } from '../../support/free-ports.ts';

/** Options of the cluster's stores. */
export interface RaftStorageClusterOptions {
  readonly retentionMs?: number;
  readonly watchBufferEventsMax?: number;
  readonly snapshotEveryEntries?: number;
}

/** Three replicas; `close()` stops them all and removes their data. */
export class RaftStorageCluster {
  readonly replicas: (RaftStorage | null)[];

  private constructor(
    private readonly dir: string,
    private readonly pki: ClusterPki,
    private readonly peers: Record<string, string>,
    private readonly options: RaftStorageClusterOptions,
  ) {
    this.replicas = Object.keys(peers).map(() => null);
  }

  /** Starts three replicas and waits for a leader. */
  static async start(options: RaftStorageClusterOptions = {}): Promise<RaftStorageCluster> {
    const dir = await mkdtemp(join(tmpdir(), 'orch-raft-storage-'));
    const ids = ['n1', 'n2', 'n3'];
    const pki = await ensureClusterPki(join(dir, 'pki'), ids);
    const ports = await freePorts(ids.length);
    const peers = Object.fromEntries(ids.map((id, i) => [id, `127.0.0.1:${ports[i]}`]));
    const cluster = new RaftStorageCluster(dir, pki, peers, options);
    try {
      for (let i = 0; i < ids.length; i += 1) await cluster.startReplica(i);
      await cluster.leaderIndex();
    } catch (error) {
      await cluster.close();
      throw error;
    }
    return cluster;
  }

  /** Starts (or restarts from its data) replica `i`. */
  async startReplica(i: number): Promise<RaftStorage> {
    const id = `n${i + 1}`;
    const pair = this.pki.replicas[id];
    if (pair === undefined) throw new Error(`no certificate for ${id}`);
    const replica = await openRaftStorage({
      dataDir: join(this.dir, id),
      replicaName: id,
      ...(this.options.retentionMs !== undefined ? { retentionMs: this.options.retentionMs } : {}),
      ...(this.options.watchBufferEventsMax !== undefined ? { watchBufferEventsMax: this.options.watchBufferEventsMax } : {}),
      raft: {
        id, peers: this.peers, listen: this.peers[id] as string, tls: { ca: this.pki.ca.cert, cert: pair.cert, key: pair.key },
        tickMs: 20, electionTicks: 10, heartbeatTicks: 1, snapshotEveryEntries: this.options.snapshotEveryEntries ?? 0,
      },
    });
    this.replicas[i] = replica;
    return replica;
  }

  /** Stops replica `i` (its data stays). */
  async stopReplica(i: number): Promise<void> {
    await this.replicas[i]?.close();
    this.replicas[i] = null;
  }

  /** The replica that leads, once all running replicas agree. */
  async leaderIndex(timeoutMs = 10_000): Promise<number> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const running = this.replicas.filter((r): r is RaftStorage => r !== null);
      const leader = this.replicas.findIndex((r) => r?.node.isLeader() === true);
      const leaderId = `n${leader + 1}`;
      if (leader >= 0 && running.every((r) => r.node.leaderId() === leaderId)) return leader;
      if (Date.now() > deadline) throw new Error('no leader elected in time');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  /** A replica that is not the leader. */
  async followerIndex(): Promise<number> {
    return ((await this.leaderIndex()) + 1) % this.replicas.length;
  }

  async close(): Promise<void> {
    for (let i = 0; i < this.replicas.length; i += 1) await this.stopReplica(i).catch(() => {});
    await rm(this.dir, { recursive: true, force: true });
  }
}
