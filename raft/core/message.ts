import { index, term } from './types.ts';
import type { Entry, Message, MessageType, NodeId } from './types.ts';

const emptyBytes = new Uint8Array(0);

/** Builds a Message from the fields that matter, every other field at its zero value. */
export function makeMessage(fields: Partial<Message> & { type: MessageType }): Message {
  return {
    from: '' as NodeId,
    to: '' as NodeId,
    term: term(0),
    logTerm: term(0),
    index: index(0),
    entries: [],
    commit: index(0),
    reject: false,
    rejectHint: index(0),
    rejectHintTerm: term(0),
    snapshot: null,
    leaderDurable: index(0),
    context: emptyBytes,
    ...fields,
  };
}

/**
 * The context of an app message that asks for no answer: it carries no entries and only moves the
 * follower's commit, and the leader already holds the follower's acknowledgement of everything
 * before it (its progress is in replicate state with `match` at the message's index). An answer
 * would change nothing at the leader and cost a message each way per commit. A follower of an
 * earlier version, which knows no context on app messages, answers it as any other.
 */
export const noAnswerContext: Uint8Array = Uint8Array.of(1);

/** Whether an app message asks for no answer (see noAnswerContext). */
export function asksNoAnswer(m: Message): boolean {
  return m.type === 'app' && m.entries.length === 0 && contextIs(m, noAnswerContext);
}

/** Whether a message carries exactly the one-byte marker context `marker`. */
function contextIs(m: Message, marker: Uint8Array): boolean {
  return m.context.byteLength === marker.byteLength && m.context[0] === marker[0];
}

/**
 * The context of an append answer from a follower that infers commits (Raft.inferCommit): told its
 * leader's durable index, it commits what it holds durably of the leader's term at or below it. The
 * leader then owes it no commit-only append for what it told. A leader of an earlier version ignores
 * contexts on append answers; to a follower of an earlier version, which sends none, the leader
 * sends every commit as before.
 */
export const infersCommitsContext: Uint8Array = Uint8Array.of(2);

/** Whether an append answer comes from a follower that infers commits (see infersCommitsContext). */
export function infersCommits(m: Message): boolean {
  return m.type === 'appResp' && contextIs(m, infersCommitsContext);
}

/**
 * Merges runs of consecutive proposals to the same node into one message each, within `maxBytes`
 * of entry data (a message holds at least one proposal): a follower relays the proposals of a
 * Ready in a few messages, and the leader steps them as one batch. The order of the messages
 * and of the entries is kept. A leader takes or refuses a merged proposal as a whole.
 */
export function coalesceProposals(msgs: Message[], maxBytes: number): Message[] {
  if (msgs.length < 2) return msgs;
  const out: Message[] = [];
  let run: { to: NodeId; entries: Entry[]; bytes: number; first: Message } | null = null;
  const close = (): void => {
    if (run === null) return;
    out.push(run.entries.length === run.first.entries.length ? run.first : { ...run.first, entries: run.entries });
    run = null;
  };
  for (const m of msgs) {
    const bytes = entriesBytes(m.entries);
    if (m.type === 'prop' && run !== null && run.to === m.to && run.bytes + bytes <= maxBytes) {
      for (const e of m.entries) run.entries.push(e);
      run.bytes += bytes;
      continue;
    }
    close();
    if (m.type === 'prop') run = { to: m.to, entries: [...m.entries], bytes, first: m };
    else out.push(m);
  }
  close();
  return out;
}

/** Message types that only the local node may produce; `RawNode.step` refuses them from the network. */
export function isLocalOnly(t: MessageType): boolean {
  return t === 'hup' || t === 'beat' || t === 'unreachable' || t === 'snapStatus' || t === 'checkQuorum' || t === 'forgetLeader';
}

/** The response type that answers a vote request type. */
export function voteRespType(t: 'vote' | 'preVote'): 'voteResp' | 'preVoteResp' {
  return t === 'vote' ? 'voteResp' : 'preVoteResp';
}

/** The total `data` bytes of entries, the unit every size cap is counted in. */
export function entriesBytes(entries: readonly { data: Uint8Array }[]): number {
  let n = 0;
  for (const e of entries) n += e.data.byteLength;
  return n;
}

/** Keeps a prefix of entries whose total bytes stay within maxBytes; always keeps the first one. */
export function limitSize<T extends { data: Uint8Array }>(entries: T[], maxBytes: number): T[] {
  if (entries.length === 0) return entries;
  let size = entries[0]!.data.byteLength;
  let k = 1;
  for (; k < entries.length; k++) {
    size += entries[k]!.data.byteLength;
    if (size > maxBytes) break;
  }
  return k === entries.length ? entries : entries.slice(0, k);
}
