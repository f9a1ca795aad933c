// An in-process cluster of RaftNodes over real gRPC + mutual TLS on 127.0.0.1, for tests.
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureClusterPki } from '../../../internal/certificates/index.ts';
import type { ClusterPki } from '../../../internal/certificates/index.ts';
import { RaftNode, type RaftTimings } from '../../../raft/node.ts';
import { freePorts } from '../../support/free-ports.ts';
import { ToyStateMachine } from './toy-state-machine.ts';

/** One member: its node (null while stopped) and its state machine. */
export interface Member {
  readonly id: string;
  node: RaftNode | null;
  sm: ToyStateMachine | null;
}

/** Options shared by every node of a toy cluster. */
export interface ToyClusterOptions {
  readonly size?: number;
  /** Members prepared (certificate, port) but not started nor founding: they join later. */
  readonly spares?: number;
  readonly snapshotEveryEntries?: number;
  readonly snapshotEveryBytes?: number;
  readonly snapshotCatchUpEntries?: number;
  /** Raft's clock (default 20 ms a tick, elections after 10 to 20 ticks). */
  readonly tickMs?: number;
  readonly electionTicks?: number;
  /** Each member's duration observer (called at every start of that member). */
  readonly timings?: (id: string) => RaftTimings;
}

/** A toy cluster in a temporary directory; `close()` stops every node and removes the directory. */
export class ToyCluster {
  readonly members: Member[];

  private constructor(
    private readonly dir: string,
    private readonly pki: ClusterPki,
    private readonly peers: Record<string, string>,
    private readonly founders: readonly string[],
    private readonly opts: ToyClusterOptions,
  ) {
    this.members = Object.keys(peers).map((id) => ({ id, node: null, sm: null }));
  }

  /** The peer address of member `id`. */
  address(id: string): string {
    return this.peers[id]!;
  }

  static async start(opts: ToyClusterOptions = {}): Promise<ToyCluster> {
    const size = opts.size ?? 3;
    const total = size + (opts.spares ?? 0);
    const dir = await mkdtemp(join(tmpdir(), 'orch-raft-it-'));
    const ids = Array.from({ length: total }, (_, i) => `n${i + 1}`);
    const pki = await ensureClusterPki(join(dir, 'pki'), ids);
    const ports = await freePorts(total);
    const peers = Object.fromEntries(ids.map((id, i) => [id, `127.0.0.1:${ports[i]}`]));
    const founders = ids.slice(0, size);
    const cluster = new ToyCluster(dir, pki, peers, founders, opts);
    try {
      for (const id of founders) await cluster.startMember(id);
    } catch (err) {
      await cluster.close();
      throw err;
    }
    return cluster;
  }

  member(id: string): Member {
    const m = this.members.find((x) => x.id === id);
    if (!m) throw new Error(`no member ${id}`);
    return m;
  }

  /** The data directory of member `id`. */
  dataDir(id: string): string {
    return join(this.dir, id);
  }

  /** Starts (or restarts from its data directory) member `id`; a spare starts as a joining member that knows every address. */
  async startMember(id: string): Promise<RaftNode> {
    const m = this.member(id);
    if (m.node) throw new Error(`${id} is running`);
    const dataDir = this.dataDir(id);
    await mkdir(dataDir, { recursive: true });
    const sm = new ToyStateMachine(dataDir);
    const pair = this.pki.replicas[id]!;
    const join = !this.founders.includes(id);
    const peers = join ? this.peers : Object.fromEntries(this.founders.map((f) => [f, this.peers[f]!]));
    try {
      const node = await RaftNode.start({
        id, dataDir, peers, join, listen: this.peers[id]!, tls: { ca: this.pki.ca.cert, cert: pair.cert, key: pair.key },
        stateMachine: sm, tickMs: this.opts.tickMs ?? 20, electionTicks: this.opts.electionTicks ?? 10, heartbeatTicks: 1,
        snapshotEveryEntries: this.opts.snapshotEveryEntries ?? 0, snapshotCatchUpEntries: this.opts.snapshotCatchUpEntries ?? 10,
        ...(this.opts.snapshotEveryBytes !== undefined ? { snapshotEveryBytes: this.opts.snapshotEveryBytes } : {}),
        ...(this.opts.timings !== undefined ? { timings: this.opts.timings(id) } : {}),
      });
      sm.node = node;
      m.node = node;
      m.sm = sm;
      return node;
    } catch (err) {
      sm.close();
      throw err;
    }
  }

  /** Stops member `id` (its data stays). */
  async stopMember(id: string): Promise<void> {
    const m = this.member(id);
    await m.node?.stop();
    m.sm?.close();
    m.node = null;
    m.sm = null;
  }

  running(): Member[] {
    return this.members.filter((m) => m.node !== null);
  }

  /** Waits until the running members agree on one leader; returns it. */
  async leader(timeoutMs = 10_000): Promise<Member> {
    let found: Member | undefined;
    await until(() => {
      const running = this.running();
      const leaders = running.filter((m) => m.node!.isLeader());
      const only = leaders[0];
      if (leaders.length !== 1 || !only) return false;
      found = only;
      return running.every((m) => m.node!.leaderId() === only.id);
    }, 'a single leader', timeoutMs);
    return found!;
  }

  /** Waits until every running member has applied at least `i`. */
  async allApplied(i: number, timeoutMs = 10_000): Promise<void> {
    await until(() => this.running().every((m) => m.node!.appliedIndex() >= i), `every node applied ${i}`, timeoutMs);
  }

  async close(): Promise<void> {
    for (const m of this.members) await this.stopMember(m.id).catch(() => {});
    await rm(this.dir, { recursive: true, force: true });
  }
}

/** A 3-member toy cluster closed when the test ends, its leader, and the two other members. */
export async function startWithLeader(t: { after(fn: () => Promise<void>): void }, opts: ToyClusterOptions = {}): Promise<{ cluster: ToyCluster; leader: Member; followers: [Member, Member] }> {
  const cluster = await ToyCluster.start(opts);
  t.after(() => cluster.close());
  const leader = await cluster.leader();
  return { cluster, leader, followers: cluster.members.filter((m) => m !== leader) as [Member, Member] };
}

/** Polls `cond` every 10 ms until true; throws after `timeoutMs`. */
export async function until(cond: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
