import { Progress } from './progress.ts';
import { isJoint } from './tracker.ts';
import type { TrackerConfig } from './tracker.ts';
import type { ConfChange, ConfChangeSingle, Index, NodeId } from './types.ts';

/** A configuration and the progress map that goes with it, as a conf change produces them. */
export interface ConfChangeResult {
  readonly config: TrackerConfig;
  readonly progress: Map<NodeId, Progress>;
}

interface Mutable {
  incoming: Set<NodeId>;
  outgoing: Set<NodeId>;
  learners: Set<NodeId>;
  learnersNext: Set<NodeId>;
  autoLeave: boolean;
  progress: Map<NodeId, Progress>;
}

/** Whether a change must go through a joint configuration. */
export function needsJoint(cc: ConfChange): boolean {
  const t = cc.transition ?? 'auto';
  return t !== 'auto' || cc.changes.length > 1;
}

/** Whether cc is the "leave joint" command. */
export function isLeaveJoint(cc: ConfChange): boolean {
  return cc.changes.length === 0;
}

/**
 * Applies cc to a config (pure: returns copies; Progress objects of kept members are shared).
 * New members start at `lastIndex + 1`. Throws an assert-style Error on an invalid change
 * (entering joint twice, leaving when not joint, a simple change of more than one voter).
 */
export function applyConfChange(cfg: TrackerConfig, progress: ReadonlyMap<NodeId, Progress>, cc: ConfChange, lastIndex: Index, maxInflight: number): ConfChangeResult {
  const m: Mutable = {
    incoming: new Set(cfg.voters.incoming),
    outgoing: new Set(cfg.voters.outgoing),
    learners: new Set(cfg.learners),
    learnersNext: new Set(cfg.learnersNext),
    autoLeave: cfg.autoLeave,
    progress: new Map(progress),
  };
  if (isLeaveJoint(cc)) {
    if (!isJoint(cfg)) throw new Error('assert: leave joint while not joint');
    leaveJoint(m);
  } else if (needsJoint(cc)) {
    if (isJoint(cfg)) throw new Error('assert: enter joint while already joint');
    if (m.incoming.size === 0) throw new Error('assert: cannot enter joint from an empty configuration');
    m.outgoing = new Set(m.incoming);
    applySingles(m, cc.changes, lastIndex, maxInflight);
    m.autoLeave = (cc.transition ?? 'auto') !== 'jointExplicit';
  } else {
    if (isJoint(cfg)) throw new Error('assert: simple change while joint');
    applySingles(m, cc.changes, lastIndex, maxInflight);
    const changed = symmetricDifference(cfg.voters.incoming, m.incoming);
    if (changed > 1) throw new Error('assert: a simple change may change at most one voter');
  }
  if (m.incoming.size === 0 && m.outgoing.size === 0 && cfg.voters.incoming.size > 0) {
    throw new Error('assert: removing every voter');
  }
  return {
    config: {
      voters: { incoming: m.incoming, outgoing: m.outgoing },
      learners: m.learners,
      learnersNext: m.learnersNext,
      autoLeave: m.autoLeave,
    },
    progress: m.progress,
  };
}

function leaveJoint(m: Mutable): void {
  for (const id of m.learnersNext) {
    m.learners.add(id);
    const pr = m.progress.get(id);
    if (pr !== undefined) pr.isLearner = true;
  }
  m.learnersNext.clear();
  for (const id of m.outgoing) {
    if (!m.incoming.has(id) && !m.learners.has(id)) m.progress.delete(id);
  }
  m.outgoing.clear();
  m.autoLeave = false;
}

function applySingles(m: Mutable, changes: readonly ConfChangeSingle[], lastIndex: Index, maxInflight: number): void {
  for (const ch of changes) {
    if (ch.nodeId === '') throw new Error('assert: conf change with empty node id');
    if (ch.type === 'addVoter') addVoter(m, ch.nodeId, lastIndex, maxInflight);
    else if (ch.type === 'addLearner') addLearner(m, ch.nodeId, lastIndex, maxInflight);
    else removeNode(m, ch.nodeId);
  }
}

function ensureProgress(m: Mutable, id: NodeId, lastIndex: Index, maxInflight: number, isLearner: boolean): void {
  const pr = m.progress.get(id);
  if (pr !== undefined) {
    pr.isLearner = isLearner;
    return;
  }
  const fresh = new Progress((lastIndex + 1) as Index, maxInflight, isLearner);
  // A new member has not had a chance to be heard from; CheckQuorum must not count it dead yet.
  fresh.recentActive = true;
  m.progress.set(id, fresh);
}

function addVoter(m: Mutable, id: NodeId, lastIndex: Index, maxInflight: number): void {
  m.learners.delete(id);
  m.learnersNext.delete(id);
  m.incoming.add(id);
  ensureProgress(m, id, lastIndex, maxInflight, false);
}

function addLearner(m: Mutable, id: NodeId, lastIndex: Index, maxInflight: number): void {
  m.incoming.delete(id);
  if (m.outgoing.has(id)) {
    // Still a voter of C_old: it becomes a learner only when the joint config is left.
    m.learnersNext.add(id);
    ensureProgress(m, id, lastIndex, maxInflight, false);
  } else {
    m.learners.add(id);
    ensureProgress(m, id, lastIndex, maxInflight, true);
  }
}

function removeNode(m: Mutable, id: NodeId): void {
  m.incoming.delete(id);
  m.learners.delete(id);
  m.learnersNext.delete(id);
  if (!m.outgoing.has(id)) m.progress.delete(id);
}

function symmetricDifference(a: ReadonlySet<NodeId>, b: ReadonlySet<NodeId>): number {
  let n = 0;
  for (const x of a) if (!b.has(x)) n++;
  for (const x of b) if (!a.has(x)) n++;
  return n;
}
