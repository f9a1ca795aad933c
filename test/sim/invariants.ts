/**
 * The safety properties of Raft, checked as the simulation runs. Every hook is called by the
 * cluster at the moment the fact becomes true (a Ready persisted, a vote sent, an entry applied),
 * and throws SimViolation as soon as a property breaks, so the trace stops at the culprit.
 */
import type { LogStorage } from '../../raft/core/log-storage.ts';
import { index as index1 } from '../../raft/core/types.ts';
import type { Entry, HardState, NodeId, Snapshot } from '../../raft/core/types.ts';

/** A broken safety or liveness property; `kind` names it, the message says where and how. */
export class SimViolation extends Error {
  constructor(
    readonly kind: string,
    detail: string,
  ) {
    super(`${kind}: ${detail}`);
    this.name = 'SimViolation';
  }
}

const decoder = new TextDecoder();

/** The identity of an entry's content: term, type and data. Equal keys mean identical entries. */
export function entryKey(e: Entry): string {
  return `${e.term}/${e.type}/${decoder.decode(e.data)}`;
}

interface CommittedEntry {
  readonly term: number;
  readonly key: string;
  /** An upper bound of the term in which the entry was committed: the observer's term then. */
  readonly commitTerm: number;
}

/**
 * The history the properties are checked against. Properties:
 * election safety (one leader per term; one granted vote per node and term), log matching,
 * leader completeness, state machine safety, monotonic durable hard state, applied <= commit,
 * and ReadIndex (a read's index covers everything known committed when it was asked).
 */
export class Invariants {
  private readonly leaderOfTerm = new Map<number, NodeId>();
  private readonly voteOf = new Map<string, NodeId>();
  private readonly entryAt = new Map<string, { key: string; prevTerm: number }>();
  private readonly committed: (CommittedEntry | undefined)[] = [];
  private readonly appliedAt: (string | undefined)[] = [];
  private readonly leaders = new Map<NodeId, { term: number; log: LogStorage }>();
  private readonly readFloor = new Map<string, number>();
  /** The highest commit index any node has made durable. */
  maxCommit = 0;

  /** A node sent a granted (non-pre) vote to `candidate` in `term`. */
  voteGranted(voter: NodeId, candidate: NodeId, term: number): void {
    const k = `${voter}@${term}`;
    const before = this.voteOf.get(k);
    if (before !== undefined && before !== candidate) {
      throw new SimViolation('election safety', `${voter} voted for ${before} and ${candidate} in term ${term}`);
    }
    this.voteOf.set(k, candidate);
  }

  /** A node made `entries` durable; its log is `log` afterwards. Checks log matching. */
  persisted(node: NodeId, entries: readonly Entry[], log: LogStorage): void {
    const first = log.firstIndex();
    for (const e of entries) {
      if (e.index < first) continue;
      const prevTerm = log.term(index1(e.index - 1));
      const k = `${e.index}@${e.term}`;
      const mine = { key: entryKey(e), prevTerm };
      const seen = this.entryAt.get(k);
      if (seen === undefined) this.entryAt.set(k, mine);
      else if (seen.key !== mine.key || seen.prevTerm !== mine.prevTerm) {
        throw new SimViolation(
          'log matching',
          `${node} has ${mine.key} (prev term ${prevTerm}) at ${k}, another node had ${seen.key} (prev term ${seen.prevTerm})`,
        );
      }
    }
  }

  /** A node replaces its durable hard state `prev` by `next`; `log` already holds the Ready's entries. */
  hardState(node: NodeId, prev: HardState, next: HardState, log: LogStorage): void {
    if (next.term < prev.term) throw new SimViolation('durable state', `${node} term ${prev.term} -> ${next.term}`);
    if (next.commit < prev.commit) throw new SimViolation('durable state', `${node} commit ${prev.commit} -> ${next.commit}`);
    if (next.term === prev.term && prev.vote !== '' && next.vote !== prev.vote) {
      throw new SimViolation('durable state', `${node} changed its vote in term ${next.term}: ${prev.vote} -> ${next.vote}`);
    }
    if (next.commit > log.lastIndex()) {
      throw new SimViolation('durable state', `${node} commit ${next.commit} beyond its last index ${log.lastIndex()}`);
    }
    const first = log.firstIndex();
    for (let i = Math.max(prev.commit + 1, first); i <= next.commit; i++) {
      const e = log.entries(index1(i), index1(i + 1), Number.MAX_SAFE_INTEGER)[0]!;
      this.recordCommitted(node, e, next.term);
    }
    this.maxCommit = Math.max(this.maxCommit, next.commit);
  }

  /** A node became leader of `term`; `log` is its whole durable log. */
  becameLeader(node: NodeId, term: number, log: LogStorage): void {
    const other = this.leaderOfTerm.get(term);
    if (other !== undefined && other !== node) {
      throw new SimViolation('election safety', `${other} and ${node} were both leader in term ${term}`);
    }
    this.leaderOfTerm.set(term, node);
    this.leaders.set(node, { term, log });
    for (let i = log.firstIndex(); i < this.committed.length; i++) {
      const c = this.committed[i];
      if (c !== undefined && c.commitTerm < term) this.checkHas(node, term, log, i, c);
    }
  }

  /** A node is no longer leader (stepped down or crashed). */
  notLeader(node: NodeId): void {
    this.leaders.delete(node);
  }

  /** A node applied `e` to its state machine while its durable commit was `commit`. */
  applied(node: NodeId, e: Entry, commit: number): void {
    if (e.index > commit) throw new SimViolation('applied beyond commit', `${node} applied ${e.index} > commit ${commit}`);
    this.checkApplied(node, e.index, entryKey(e));
  }

  /** A node installed a snapshot whose state machine holds `keys` (keys[i] is index i+1). */
  snapshotInstalled(node: NodeId, snap: Snapshot, keys: readonly string[]): void {
    if (keys.length !== snap.metadata.index) {
      throw new SimViolation('snapshot', `${node} got snapshot at ${snap.metadata.index} holding ${keys.length} entries`);
    }
    keys.forEach((k, i) => this.checkApplied(node, i + 1, k));
  }

  /** A client asked for a linearizable read with `context`. */
  readRequested(context: string): void {
    this.readFloor.set(context, this.maxCommit);
  }

  /** A ReadState for `context` came back with `index`. */
  readAnswered(node: NodeId, context: string, readIndex: number): void {
    const floor = this.readFloor.get(context);
    if (floor === undefined) throw new SimViolation('read index', `${node} answered unknown read ${context}`);
    if (readIndex < floor) {
      throw new SimViolation('read index', `${node} answered ${context} at ${readIndex}, but ${floor} was committed before it was asked`);
    }
  }

  private checkApplied(node: NodeId, i: number, key: string): void {
    const before = this.appliedAt[i];
    if (before !== undefined && before !== key) {
      throw new SimViolation('state machine safety', `${node} applied ${key} at ${i}, another node applied ${before}`);
    }
    const c = this.committed[i];
    if (c !== undefined && c.key !== key) {
      throw new SimViolation('state machine safety', `${node} applied ${key} at ${i}, but ${c.key} was committed there`);
    }
    this.appliedAt[i] = key;
  }

  private recordCommitted(node: NodeId, e: Entry, observerTerm: number): void {
    const key = entryKey(e);
    const before = this.committed[e.index];
    if (before !== undefined) {
      if (before.key !== key) {
        throw new SimViolation('state machine safety', `${node} committed ${key} at ${e.index}, ${before.key} was committed there before`);
      }
      return;
    }
    const applied = this.appliedAt[e.index];
    if (applied !== undefined && applied !== key) {
      throw new SimViolation('state machine safety', `${node} committed ${key} at ${e.index}, ${applied} was applied there`);
    }
    const c = { term: e.term, key, commitTerm: observerTerm };
    this.committed[e.index] = c;
    for (const [leader, { term, log }] of this.leaders) {
      if (term > c.commitTerm && e.index >= log.firstIndex()) this.checkHas(leader, term, log, e.index, c);
    }
  }

  private checkHas(node: NodeId, term: number, log: LogStorage, i: number, c: CommittedEntry): void {
    const has = i <= log.lastIndex() ? log.term(index1(i)) : -1;
    if (has !== c.term) {
      throw new SimViolation(
        'leader completeness',
        `leader ${node} of term ${term} lacks committed ${c.key} at ${i} (committed by term ${c.commitTerm}; it has term ${has} there)`,
      );
    }
  }
}
