import { test } from 'node:test';
import assert from 'node:assert/strict';
import { index } from '../../../raft/core/index.ts';
import type { ConfState } from '../../../raft/core/index.ts';
import { RaftNodeError } from '../../../raft/errors.ts';
import { joinGroup } from '../../../raft/join.ts';
import type { JoiningNode } from '../../../raft/join.ts';
import { learnerPromotionLagEntriesMax } from '../../../raft/limits.ts';
import { answerMembershipRequest, checkCaughtUp, membersOf } from '../../../raft/membership.ts';
import type { MembershipHost, MemberInfo } from '../../../raft/membership.ts';
import type { MembershipAnswer, MembershipRequest } from '../../../raft/wire.ts';

const conf = (voters: string[], learners: string[] = []): ConfState => ({ voters, learners, votersOutgoing: [], learnersNext: [], autoLeave: false });
const progress = (match: number) => ({ match: index(match), next: index(match + 1), state: 'replicate' as const });

test('members are listed in id order with their role and address, and match and lag only on the leader', () => {
  const addresses: Record<string, string> = { n1: 'h1:1', n2: 'h2:1' };
  const cs = conf(['n2', 'n1'], ['n4']);
  assert.deepEqual(membersOf(cs, (id) => addresses[id] ?? '', null), [
    { id: 'n1', peerAddress: 'h1:1', role: 'voter' }, { id: 'n2', peerAddress: 'h2:1', role: 'voter' }, { id: 'n4', peerAddress: '', role: 'learner' },
  ]);
  const led = membersOf(cs, () => '', { progress: { n1: progress(50), n2: progress(48), n4: progress(10) }, lastIndex: index(50) });
  assert.deepEqual(led.map((m) => [m.id, m.matchIndex, m.lag]), [['n1', 50, 0], ['n2', 48, 2], ['n4', 10, 40]]);
});

test('a learner is caught up within the lag bound, and refused saying by how many entries otherwise', () => {
  checkCaughtUp('n4', 100, 100 + learnerPromotionLagEntriesMax);
  assert.throws(() => checkCaughtUp('n4', 100, 101 + learnerPromotionLagEntriesMax), (e: unknown) => e instanceof RaftNodeError && e.code === 'LearnerBehind' && e.message.includes(`is ${learnerPromotionLagEntriesMax + 1} entries behind`));
  // One that never acknowledged anything to this leader is not known to be anywhere.
  assert.throws(() => checkCaughtUp('n4', 0, 3), (e: unknown) => e instanceof RaftNodeError && e.code === 'LearnerBehind');
});

function host(leader: boolean, members: MemberInfo[]): MembershipHost & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    isLeader: () => leader,
    leaderId: () => 'n1',
    clusterId: () => 'c1',
    members: () => members,
    peerAddresses: () => ({ n1: 'h1:1', n2: 'h2:1' }),
    addMember: async (id, address, opts) => void calls.push(`add ${id} ${address} ${opts.learner}`),
    promoteMember: async (id) => void calls.push(`promote ${id}`),
  };
}

test('a follower answers a membership request with the leader; the leader adds or promotes, and a repeat is harmless', async () => {
  const follower = host(false, []);
  assert.deepEqual(await answerMembershipRequest(follower, { kind: 'join', name: 'n4', peerAddress: 'h4:1' }), { done: false, clusterId: 'c1', leaderName: 'n1', leaderAddress: 'h1:1', peerAddresses: {} });
  assert.deepEqual(follower.calls, []);
  const leader = host(true, [{ id: 'n1', peerAddress: 'h1:1', role: 'voter' }]);
  const added = await answerMembershipRequest(leader, { kind: 'join', name: 'n4', peerAddress: 'h4:1' });
  assert.equal(added.done, true);
  assert.deepEqual(added.peerAddresses, { n1: 'h1:1', n2: 'h2:1' });
  const learner = host(true, [{ id: 'n4', peerAddress: 'h4:1', role: 'learner' }]);
  await answerMembershipRequest(learner, { kind: 'join', name: 'n4', peerAddress: 'h4:1' });
  await answerMembershipRequest(learner, { kind: 'promote', name: 'n4' });
  await assert.rejects(answerMembershipRequest(learner, { kind: 'join', name: 'n4', peerAddress: 'other:1' }), (e: unknown) => e instanceof RaftNodeError && e.code === 'AlreadyMember');
  await assert.rejects(answerMembershipRequest(host(true, []), { kind: 'promote', name: 'n4' }), (e: unknown) => e instanceof RaftNodeError && e.code === 'NotMember');
  assert.deepEqual([...leader.calls, ...learner.calls], ['add n4 h4:1 true', 'promote n4']);
});

test('the join loop follows a follower to the leader, asks to be promoted until caught up, and stops once a voter', async () => {
  let role: 'voter' | 'learner' | null = null;
  const asked: string[] = [];
  let behind = 2;
  const answer = (done: boolean, leaderAddress = ''): MembershipAnswer => ({ done, clusterId: 'c1', leaderName: done ? 'n1' : 'n1', leaderAddress, peerAddresses: {} });
  const node: JoiningNode = {
    id: 'n4',
    peerAddress: 'h4:1',
    ownRole: () => role,
    learn: () => {},
    ask: async (address: string, request: MembershipRequest) => {
      asked.push(`${request.kind}@${address}`);
      if (address === 'h2:1') return answer(false, 'h1:1');
      if (request.kind === 'join') return answer(true);
      if (behind-- > 0) throw new RaftNodeError('LearnerBehind', 'learner n4 is 5 entries behind');
      role = 'voter';
      return answer(true);
    },
  };
  const lines: string[] = [];
  await joinGroup(node, ['h2:1'], (m) => lines.push(m), new AbortController().signal);
  assert.deepEqual(asked, ['join@h2:1', 'join@h1:1', 'promote@h1:1', 'promote@h1:1', 'promote@h1:1']);
  assert.ok(lines.some((l) => l.startsWith('not promoted yet: learner n4 is 5 entries behind')));
  assert.equal(lines.at(-1), 'promoted to voter by n1');
});

test('the join loop ends when its node stops', async () => {
  const stop = new AbortController();
  const node: JoiningNode = {
    id: 'n4', peerAddress: 'h4:1', ownRole: () => null, learn: () => {},
    ask: async () => {
      stop.abort();
      throw new RaftNodeError('Unavailable', 'down');
    },
  };
  await joinGroup(node, ['h1:1'], () => {}, stop.signal);
});

test('the join loop gives up, with the reason, when the name is another member\'s or the certificate is not the name\'s', async () => {
  for (const code of ['AlreadyMember', 'PermissionDenied'] as const) {
    let asked = 0;
    const node: JoiningNode = {
      id: 'n2', peerAddress: 'h9:1', ownRole: () => null, learn: () => {},
      ask: async () => {
        asked += 1;
        throw new RaftNodeError(code, `n2 is a member already at h2:1 (not h9:1)`);
      },
    };
    const lines: string[] = [];
    const refusal = await joinGroup(node, ['h1:1'], (m) => lines.push(m), new AbortController().signal);
    assert.equal(asked, 1, `${code}: asked once, never retried`);
    assert.match(refusal ?? '', new RegExp(`join refused \\(${code}\\): n2 is a member already`));
    assert.match(lines.at(-1) ?? '', /giving up$/);
  }
});
