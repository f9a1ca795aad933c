/**
 * Compact, deterministic one-line descriptions of entries, messages, hard states and Ready
 * batches, as printed in the scripts' expected output.
 */
import { decodeConfChange } from '../../raft/core/index.ts';
import { asksNoAnswer } from '../../raft/core/message.ts';
import type { ConfChange, ConfState, Entry, HardState, Message, Ready, Snapshot } from '../../raft/core/index.ts';

const decoder = new TextDecoder();

/** Text bytes as a JSON string literal (binary is shown escaped, never dropped). */
export function quoted(data: Uint8Array): string {
  return JSON.stringify(decoder.decode(data));
}

/** The id, or `none` for the empty id. */
export function idOrNone(id: string): string {
  return id === '' ? 'none' : id;
}

/** `v4 l5 r2` for add voter 4, add learner 5, remove 2 (plus a non-auto transition); `leave-joint` for the empty change. */
export function describeConfChange(cc: ConfChange): string {
  if (cc.changes.length === 0) return 'leave-joint';
  const letter = { addVoter: 'v', addLearner: 'l', removeNode: 'r' } as const;
  const changes = cc.changes.map((c) => `${letter[c.type]}${c.nodeId}`).join(' ');
  return cc.transition === undefined || cc.transition === 'auto' ? changes : `${changes} (${cc.transition})`;
}

/** `term/index normal "data"` or `term/index confChange v4`. */
export function describeEntry(e: Entry): string {
  if (e.type === 'confChange') return `${e.term}/${e.index} confChange ${describeConfChange(decodeConfChange(e.data))}`;
  return `${e.term}/${e.index} normal ${quoted(e.data)}`;
}

/** `voters=(1,2,3) learners=(4)` plus the outgoing half of a joint configuration when there is one. */
export function describeConfState(cs: ConfState): string {
  const list = (ids: readonly string[]): string => `(${[...ids].sort().join(',')})`;
  let s = `voters=${list(cs.voters)} learners=${list(cs.learners)}`;
  if (cs.votersOutgoing.length > 0) s += ` outgoing=${list(cs.votersOutgoing)} learnersNext=${list(cs.learnersNext)}`;
  return s;
}

/** `index=.. term=.. voters=(..) learners=(..)`. */
export function describeSnapshot(s: Snapshot): string {
  return `index=${s.metadata.index} term=${s.metadata.term} ${describeConfState(s.metadata.confState)}`;
}

/** `term=.. vote=.. commit=..`. */
export function describeHardState(hs: HardState): string {
  return `term=${hs.term} vote=${idOrNone(hs.vote)} commit=${hs.commit}`;
}

function entriesField(m: Message): string[] {
  return m.entries.length === 0 ? [] : [`entries=[${m.entries.map(describeEntry).join(', ')}]`];
}

function contextField(m: Message): string[] {
  return m.context.length === 0 ? [] : [`ctx=${quoted(m.context)}`];
}

function typeFields(m: Message): string[] {
  switch (m.type) {
    case 'app':
      return [`logTerm=${m.logTerm}`, `index=${m.index}`, `commit=${m.commit}`, ...(m.leaderDurable > 0 ? [`durable=${m.leaderDurable}`] : []), ...(asksNoAnswer(m) ? ['no-answer'] : []), ...entriesField(m)];
    case 'appResp':
      return m.reject ? [`index=${m.index}`, `rejected hint=${m.rejectHint} hintTerm=${m.rejectHintTerm}`] : [`index=${m.index}`];
    case 'vote':
    case 'preVote':
      return [`logTerm=${m.logTerm}`, `index=${m.index}`];
    case 'voteResp':
    case 'preVoteResp':
      return [m.reject ? 'rejected' : 'granted', ...(m.commit > 0 ? [`commit=${m.commit} commitTerm=${m.logTerm}`] : [])];
    case 'snap':
      return [`snapshot=[${m.snapshot === null ? 'none' : describeSnapshot(m.snapshot)}]`];
    case 'heartbeat':
      return [`commit=${m.commit}`, ...contextField(m)];
    case 'heartbeatResp':
    case 'readIndex':
      return contextField(m);
    case 'readIndexResp':
      return [`index=${m.index}`, ...contextField(m)];
    case 'prop':
      return entriesField(m);
    default:
      return genericFields(m);
  }
}

function genericFields(m: Message): string[] {
  const fields: string[] = [];
  if (m.logTerm > 0) fields.push(`logTerm=${m.logTerm}`);
  if (m.index > 0) fields.push(`index=${m.index}`);
  if (m.commit > 0) fields.push(`commit=${m.commit}`);
  if (m.reject) fields.push('rejected');
  return [...fields, ...contextField(m), ...entriesField(m)];
}

/** `1->2 app term=1 logTerm=1 index=11 commit=11 entries=[1/12 normal "data"]`. */
export function describeMessage(m: Message): string {
  return [`${m.from}->${m.to} ${m.type} term=${m.term}`, ...typeFields(m)].join(' ');
}

/** The Ready batch, one fact per line, sections only when non-empty. */
export function describeReady(rd: Ready): string[] {
  const out = [`Ready mustSync=${rd.mustSync}`];
  if (rd.softState) out.push(`soft: lead=${idOrNone(rd.softState.lead)} role=${rd.softState.role}`);
  if (rd.hardState) out.push(`hard: ${describeHardState(rd.hardState)}`);
  if (rd.snapshot) out.push(`snapshot: ${describeSnapshot(rd.snapshot)}`);
  const section = (title: string, lines: string[]): void => {
    if (lines.length > 0) out.push(`${title}:`, ...lines.map((l) => `  ${l}`));
  };
  section('entries', rd.entries.map(describeEntry));
  section('committed', rd.committedEntries.map(describeEntry));
  section('messages', rd.messages.map(describeMessage));
  section('readStates', rd.readStates.map((r) => `index=${r.index} ctx=${quoted(r.requestContext)}`));
  return out;
}
