// A maintenance backend in memory: a group of members, a leader the test sets, and a record of
// every change asked of it, so that tests see what a refused call did not do.
import { Readable } from 'node:stream';
import { MaintenanceError, type Leadership, type MaintenanceBackend, type Member, type MembersView, type ReplicaStatus, type SnapshotDownload } from '../../../../internal/apiserver/maintenance/backend.ts';

/** The snapshot the fake serves: its bytes, made lazily chunk by chunk, and what was read of them. */
export interface FakeSnapshot {
  readonly chunkBytes: number;
  readonly chunks: number;
  /** Chunks the stream produced so far. */
  produced: number;
  /** Times `release` was called. */
  released: number;
}

/** The byte at `offset` of the fake snapshot: a pattern a test can check. */
export function fakeSnapshotByte(offset: number): number {
  return offset % 251;
}

/** The backend of replica `orch-1` in a group of orch-1, orch-2 (voters) and orch-4 (a learner). */
export class FakeBackend implements MaintenanceBackend {
  self = 'orch-1';
  leader: string | null = 'orch-1';
  group: Member[] = [
    { name: 'orch-1', peerAddress: 'h1:6543', role: 'voter' },
    { name: 'orch-2', peerAddress: 'h2:6543', role: 'voter' },
    { name: 'orch-4', peerAddress: 'h4:6543', role: 'learner' },
  ];
  /** Learners not caught up yet, by name: how many entries behind. */
  readonly behind = new Map<string, number>();
  /** The next leadership transfer times out. */
  transferTimesOut = false;
  /** Every change made, in order (`add orch-5`, `promote orch-4`...). */
  readonly changes: string[] = [];
  snapshot: FakeSnapshot = { chunkBytes: 64 * 1024, chunks: 4, produced: 0, released: 0 };

  leadership(): Leadership {
    return { self: this.self, leader: this.leader };
  }

  private leaderOnly(): void {
    if (this.leader !== this.self) throw new MaintenanceError('NotLeader', 'not the leader', this.leader);
  }

  private find(name: string): Member {
    const member = this.group.find((m) => m.name === name);
    if (member === undefined) throw new MaintenanceError('NotMember', `no member ${name}`);
    return member;
  }

  status(): Promise<ReplicaStatus> {
    return Promise.resolve({
      name: this.self, version: '0.1.0', formats: { log: 1, state: 1, snapshot: 1 }, clusterId: 'c0ffee', role: this.leader === this.self ? 'leader' : 'follower',
      leader: this.leader, term: 3, commitIndex: 40, appliedIndex: 40, firstIndex: 1, lastIndex: 40, snapshotIndex: 0, revision: 17,
      dbSizeBytes: { state: 4096, log: 8192 }, members: this.group,
    });
  }

  members(): MembersView {
    return { leader: this.leader, members: this.group };
  }

  addMember(request: { name: string; peerAddress: string; learner: boolean }): Promise<Member> {
    this.leaderOnly();
    if (this.group.some((m) => m.name === request.name)) return Promise.reject(new MaintenanceError('AlreadyMember', `${request.name} is a member already`));
    const member: Member = { name: request.name, peerAddress: request.peerAddress, role: request.learner ? 'learner' : 'voter' };
    this.group.push(member);
    this.changes.push(`add ${request.name} ${member.role}`);
    return Promise.resolve(member);
  }

  promoteMember(name: string): Promise<Member> {
    this.leaderOnly();
    const member = this.find(name);
    if (member.role === 'voter') throw new MaintenanceError('NotLearner', `${name} is a voter already`);
    const lag = this.behind.get(name);
    if (lag !== undefined) throw new MaintenanceError('LearnerBehind', `${name} is ${lag} entries behind the leader; promote it once it has caught up`);
    const promoted: Member = { ...member, role: 'voter' };
    this.group = this.group.map((m) => (m.name === name ? promoted : m));
    this.changes.push(`promote ${name}`);
    return Promise.resolve(promoted);
  }

  removeMember(name: string): Promise<void> {
    this.leaderOnly();
    const member = this.find(name);
    if (member.role === 'voter' && this.group.filter((m) => m.role === 'voter').length === 1) throw new MaintenanceError('LastVoter', `${name} is the last voter`);
    this.group = this.group.filter((m) => m.name !== name);
    this.changes.push(`remove ${name}`);
    return Promise.resolve();
  }

  transferLeadership(target: string): Promise<void> {
    this.leaderOnly();
    if (this.find(target).role !== 'voter') throw new MaintenanceError('NotVoter', `${target} is a learner and cannot lead`);
    if (this.transferTimesOut) throw new MaintenanceError('Timeout', `${target} did not take over within 100 ms`);
    this.leader = target;
    this.changes.push(`leader ${target}`);
    return Promise.resolve();
  }

  openSnapshot(): Promise<SnapshotDownload> {
    const snapshot = this.snapshot;
    const { chunkBytes, chunks } = snapshot;
    function* bytes(): Generator<Buffer> {
      for (let i = 0; i < chunks; i++) {
        snapshot.produced++;
        yield Buffer.from(Array.from({ length: chunkBytes }, (_, j) => fakeSnapshotByte(i * chunkBytes + j)));
      }
    }
    return Promise.resolve({
      stream: Readable.from(bytes(), { objectMode: false }),
      sizeBytes: chunkBytes * chunks,
      fileName: 'orch-1-17.snapshot',
      release: () => {
        snapshot.released++;
        return Promise.resolve();
      },
    });
  }
}
