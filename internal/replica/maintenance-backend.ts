/**
 * The maintenance API's backend on a replica (docs/operations.md): the Raft node's membership,
 * leadership and status, the store's revision and database files, and snapshot downloads made
 * from a consistent copy of the store. Raft's errors are translated here, at the edge, into the
 * API's MaintenanceError codes.
 */
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { mkdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { logFormatVersion } from '../../raft/formats.ts';
import { RaftNodeError, type RaftNode } from '../../raft/index.ts';
import { snapshotReadBarrierTimeoutMs } from '../apiserver/limits.ts';
import type { MemberInfo } from '../../raft/index.ts';
import {
  MaintenanceError, type Leadership, type MaintenanceBackend, type Member, type MembersView, type ReplicaStatus, type SnapshotDownload,
} from '../apiserver/maintenance/backend.ts';
import { encodeSnapshotHeader, snapshotFileFormatVersion, snapshotHeaderFor, snapshotStream } from '../storage/snapshot-file.ts';
import { stateFormatVersion } from '../storage/state-schema.ts';
import { orchRelease } from '../version.ts';
import type { ReplicatedStorage } from '../storage/replicated-storage.ts';

/** Snapshot downloads served at once: each holds a whole copy of the store on disk while it runs. */
export const snapshotDownloadsMax = 2;

/** What the backend uses of the Raft node. */
export type MaintainedNode = Pick<RaftNode, 'id' | 'isLeader' | 'leaderId' | 'status' | 'clusterId' | 'termAt' | 'members' | 'addMember' | 'promoteMember' | 'removeMember' | 'transferLeadership' | 'readIndex'>;

/** What the backend needs of the replica. */
export interface MaintenanceBackendOptions {
  readonly raft: MaintainedNode;
  readonly storage: Pick<ReplicatedStorage, 'stateMachine' | 'localRevision'>;
  /** The replica's data directory: the store in `state/`, the Raft log in `raft/`, download copies in `snapshot-downloads/`. */
  readonly dataDir: string;
  /** How long a snapshot waits to confirm this replica is current (default snapshotReadBarrierTimeoutMs). */
  readonly readBarrierTimeoutMs?: number;
}

/** Raft's refusals as the API's; anything else (a bug) unchanged. */
function translate(err: unknown, leader: string | null): unknown {
  if (!(err instanceof RaftNodeError)) return err;
  switch (err.code) {
    case 'NotLeader':
      return new MaintenanceError('NotLeader', err.message, leader);
    case 'AlreadyMember':
    case 'NotMember':
    case 'NotLearner':
    case 'LearnerBehind':
    case 'LastVoter':
    case 'ConfChangePending':
    case 'Timeout':
      return new MaintenanceError(err.code, err.message);
    default:
      // Stopped, dropped or overwritten proposals, full queues, an unknown outcome: try again later.
      return new MaintenanceError('Unavailable', `${err.code}: ${err.message}`);
  }
}

/**
 * Resolves once this replica has applied every entry the leader had committed when it was called
 * (a ReadIndex round through the leader, then the local apply catching up); rejects with
 * MaintenanceError Unavailable when that is not confirmed within `timeoutMs`. A replica cut off
 * from the leader, or removed from the group, gets no read index: it never confirms.
 */
async function confirmCurrent(raft: MaintainedNode, timeoutMs: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no read index confirmed by a leader within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    await Promise.race([raft.readIndex(), timeout]);
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    throw new MaintenanceError('Unavailable', `this replica cannot confirm it is current with the cluster's leader: ${why}; take the snapshot from another replica`);
  } finally {
    clearTimeout(timer);
  }
}

/** A member as the API shows it. */
function memberOf(info: MemberInfo): Member {
  return {
    name: info.id, peerAddress: info.peerAddress, role: info.role,
    ...(info.matchIndex === undefined ? {} : { matchIndex: info.matchIndex }),
    ...(info.lag === undefined ? {} : { lag: info.lag }),
  };
}

/** Bytes of a SQLite database and its write-ahead log (0 for a file that is not there). */
async function databaseBytes(path: string): Promise<number> {
  const sizes = await Promise.all([path, `${path}-wal`].map((p) => stat(p).then((s) => s.size, () => 0)));
  return sizes.reduce((a, b) => a + b, 0);
}

/** The replica's MaintenanceBackend. */
export class ReplicaMaintenance implements MaintenanceBackend {
  private readonly version = orchRelease;
  private readonly downloadsDir: string;
  private downloads = 0;

  constructor(private readonly opts: MaintenanceBackendOptions) {
    this.downloadsDir = join(opts.dataDir, 'snapshot-downloads');
    // Copies left by a replica that stopped mid-download are nobody's now.
    rmSync(this.downloadsDir, { recursive: true, force: true });
  }

  leadership(): Leadership {
    return { self: this.opts.raft.id, leader: this.opts.raft.leaderId() };
  }

  members(): MembersView {
    return { leader: this.opts.raft.leaderId(), members: this.opts.raft.members().map(memberOf) };
  }

  async status(): Promise<ReplicaStatus> {
    const { raft, storage, dataDir } = this.opts;
    const s = raft.status();
    const members = raft.members().map(memberOf);
    const learner = members.find((m) => m.name === raft.id)?.role === 'learner';
    const role = s.role === 'leader' ? 'leader' : learner ? 'learner' : s.role === 'follower' ? 'follower' : 'candidate';
    const [state, log] = await Promise.all([databaseBytes(join(dataDir, 'state', 'state.db')), databaseBytes(join(dataDir, 'raft', 'raft.db'))]);
    return {
      name: raft.id, version: this.version, formats: { log: logFormatVersion, state: stateFormatVersion, snapshot: snapshotFileFormatVersion },
      clusterId: raft.clusterId(), role, leader: raft.leaderId(), term: s.term, commitIndex: s.commit, appliedIndex: s.applied,
      firstIndex: s.firstIndex, lastIndex: s.lastIndex, snapshotIndex: s.snapshotIndex, revision: storage.localRevision(),
      dbSizeBytes: { state, log }, members,
    };
  }

  /** Runs a Raft call, its refusals translated. */
  private async raftCall<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (err) {
      throw translate(err, this.opts.raft.leaderId());
    }
  }

  /** The member `name` as this replica has it now (after a change applied here). */
  private member(name: string): Member | undefined {
    return this.members().members.find((m) => m.name === name);
  }

  async addMember(request: { readonly name: string; readonly peerAddress: string; readonly learner: boolean }): Promise<Member> {
    // Two members at one address would each take the other's messages.
    const sharing = this.members().members.find((m) => m.peerAddress === request.peerAddress && m.name !== request.name);
    if (sharing !== undefined) throw new MaintenanceError('AlreadyMember', `${sharing.name} is a member at ${request.peerAddress} already`);
    await this.raftCall(() => this.opts.raft.addMember(request.name, request.peerAddress, { learner: request.learner }));
    return this.member(request.name) ?? { name: request.name, peerAddress: request.peerAddress, role: request.learner ? 'learner' : 'voter' };
  }

  async promoteMember(name: string): Promise<Member> {
    await this.raftCall(() => this.opts.raft.promoteMember(name));
    return this.member(name) ?? { name, peerAddress: '', role: 'voter' };
  }

  async removeMember(name: string): Promise<void> {
    await this.raftCall(() => this.opts.raft.removeMember(name));
  }

  async transferLeadership(target: string): Promise<void> {
    const { raft } = this.opts;
    if (!raft.isLeader()) throw new MaintenanceError('NotLeader', `${raft.id} is not the leader`, raft.leaderId());
    const member = this.member(target);
    if (member === undefined) throw new MaintenanceError('NotMember', `${target} is not a member`);
    if (member.role !== 'voter') throw new MaintenanceError('NotVoter', `${target} is a learner: only a voter can lead (promote it first)`);
    if (target === raft.id) return;
    await this.raftCall(() => raft.transferLeadership(target));
  }

  async openSnapshot(): Promise<SnapshotDownload> {
    if (this.downloads >= snapshotDownloadsMax) throw new MaintenanceError('Unavailable', `${this.downloads} snapshot downloads are running already; retry once one ended`);
    this.downloads++;
    const path = join(this.downloadsDir, `snapshot-${randomBytes(8).toString('hex')}.db`);
    let released = false;
    const release = async (): Promise<void> => {
      if (released) return;
      released = true;
      this.downloads--;
      await Promise.all(['', '-wal', '-shm', '-journal'].map((suffix) => rm(`${path}${suffix}`, { force: true })));
    };
    try {
      // A stale copy (a replica removed or cut off) would back up old data as if it were current:
      // the copy is made only once it holds every write acknowledged before this request.
      await confirmCurrent(this.opts.raft, this.opts.readBarrierTimeoutMs ?? snapshotReadBarrierTimeoutMs);
      await mkdir(this.downloadsDir, { recursive: true });
      await this.opts.storage.stateMachine.snapshotTo(path);
      const { raft } = this.opts;
      const partial = await snapshotHeaderFor(path, { raftTerm: 0, clusterId: raft.clusterId(), replica: raft.id });
      const header = { ...partial, raftTerm: raft.termAt(partial.raftIndex) };
      return {
        stream: snapshotStream(header, path),
        sizeBytes: encodeSnapshotHeader(header).length + header.size,
        fileName: `${raft.id}-${header.revision}.snapshot`,
        release,
      };
    } catch (err) {
      await release();
      throw err;
    }
  }
}
