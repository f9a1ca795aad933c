// grpc-js writes a message to its socket only on a turn of the event loop after the send, so an
// apply in the same turn as the send holds the message back for as long as the apply takes. These
// pin down that a Ready's messages get that turn before its committed entries are applied when a
// follower's client waits on them, and that a leader's own proposals do not wait for it. (With three
// voters a follower mostly infers the commit from the leader's durable index instead: the first test
// holds either way, since the leader's notice and entries get their turn too.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Entry } from '../../../raft/core/index.ts';
import type { Transport } from '../../../raft/transport.ts';
import { startWithLeader, until } from './toy-cluster.ts';
import type { Member } from './toy-cluster.ts';

/**
 * Records, on `member`, each send to the peers, the first event-loop turn after it, and each apply
 * of an entry carrying `marker`, in the order they happen.
 */
function recordSendsAndApplies(member: Member, marker: string): string[] {
  const events: string[] = [];
  const transport = (member.node as unknown as { transport: Transport }).transport;
  const flush = transport.flush.bind(transport);
  let sends = 0;
  transport.flush = () => {
    const n = ++sends;
    events.push(`send ${n}`);
    setImmediate(() => events.push(`turn after send ${n}`));
    flush();
  };
  const sm = member.sm!;
  const apply = sm.apply.bind(sm);
  sm.apply = (entries: readonly Entry[]) => {
    if (entries.some((e) => new TextDecoder().decode(e.data) === marker)) events.push('apply');
    apply(entries);
  };
  return events;
}

/** The send that came last before the apply, and whether its turn came between them. */
function lastSendBeforeApply(events: readonly string[]): { send: string; turnBeforeApply: boolean } {
  const applyAt = events.indexOf('apply');
  assert.ok(applyAt > 0, `no apply recorded after a send: ${events.join(', ')}`);
  const send = events.slice(0, applyAt).filter((e) => e.startsWith('send ')).at(-1) ?? '';
  return { send, turnBeforeApply: events.slice(0, applyAt).includes(`turn after ${send}`) };
}

test("the leader sends a commit a follower's client waits for a turn before applying it, so the apply does not hold the commit back", async (t) => {
  const { leader, followers: [follower] } = await startWithLeader(t);
  const marker = 'relayed-sent-before-applied';
  const onLeader = recordSendsAndApplies(leader, marker);
  const onFollower = recordSendsAndApplies(follower, marker);
  // Relayed by the follower (MsgProp), as a write sent to a follower is: its client waits for the follower's apply.
  const relayed = follower.node!.proposeViaLeader(new TextEncoder().encode(marker));
  await until(() => onFollower.includes('apply') && onLeader.includes('apply'), 'both apply the entry');
  relayed.settle();
  for (const [who, events] of [['leader', onLeader], ['follower', onFollower]] as const) {
    const { send, turnBeforeApply } = lastSendBeforeApply(events);
    assert.ok(turnBeforeApply, `${who}: applied in the same turn as ${send}, before grpc-js could write it: ${events.join(', ')}`);
  }
});

test("the leader applies its own proposal's commit at once: no follower's client waits for that commit, the leader's own does", async (t) => {
  // Five voters: followers infer no commits there (a leader and one follower are no quorum), so the
  // leader sends its commit in the Ready that applies it.
  const { leader } = await startWithLeader(t, { size: 5 });
  const marker = 'own-applied-at-once';
  const onLeader = recordSendsAndApplies(leader, marker);
  await leader.node!.propose(new TextEncoder().encode(marker));
  const { send, turnBeforeApply } = lastSendBeforeApply(onLeader);
  assert.equal(turnBeforeApply, false, `the leader waited a turn after ${send} before applying its own proposal: ${onLeader.join(', ')}`);
});
