import { index, term } from './types.ts';
import type { Message, MessageType, NodeId } from './types.ts';

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
    context: emptyBytes,
    ...fields,
  };
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
