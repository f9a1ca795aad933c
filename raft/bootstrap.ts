/**
 * The first state of a new group. Every founding member writes the same committed prefix: one
 * 'addVoter' conf change per member (context: its peer address), in id order, at term 1 — so
 * a member that joins later and replays the log from index 1 learns the founding membership.
 */
import { encodeConfChange, index, term } from './core/index.ts';
import type { ConfState, Entry, NodeId } from './core/index.ts';
import type { SqliteLogStorage } from './sqlite-log-storage.ts';

/** The founding entries for members `peers` (plus `self`), identical on every founding member. */
export function foundingEntries(peers: Readonly<Record<NodeId, string>>, self: NodeId): Entry[] {
  const ids = [...new Set([...Object.keys(peers), self])].sort();
  return ids.map((id, i) => ({
    index: index(i + 1),
    term: term(1),
    type: 'confChange' as const,
    data: encodeConfChange({ changes: [{ type: 'addVoter', nodeId: id }], context: new TextEncoder().encode(peers[id] ?? '') }),
  }));
}

/** Writes the founding state into an empty log (see foundingEntries), with the founding cluster id of the members' names. */
export function bootstrapLog(storage: SqliteLogStorage, peers: Readonly<Record<NodeId, string>>, self: NodeId): void {
  const entries = foundingEntries(peers, self);
  const voters = [...new Set([...Object.keys(peers), self])].sort();
  const confState: ConfState = { voters, learners: [], votersOutgoing: [], learnersNext: [], autoLeave: false };
  storage.bootstrap(entries, { term: term(1), vote: '', commit: index(entries.length) }, confState);
}
