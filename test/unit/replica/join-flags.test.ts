import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FlagError, parseReplicaFlags } from '../../../internal/replica/parse-flags.ts';

const refused = (argv: string[], message: RegExp): void => {
  assert.throws(() => parseReplicaFlags(['--name', 'orch-4', ...argv]), (err: unknown) => err instanceof FlagError && message.test(err.message), argv.join(' '));
};

test('without --join a replica founds a new cluster', () => {
  const flags = parseReplicaFlags(['--name', 'orch-1']);
  assert.deepEqual(flags.join, []);
  assert.equal(flags.initialClusterState, 'new');
});

test('--join takes members\' peer addresses, implies an existing cluster and needs no --peers', () => {
  const flags = parseReplicaFlags(['--name', 'orch-4', '--peer-address', 'h4:6543', '--join', 'h1:6543,h2:6543,,h1:6543']);
  assert.deepEqual(flags.join, ['h1:6543', 'h2:6543']);
  assert.equal(flags.initialClusterState, 'existing');
  assert.deepEqual(flags.peers, { 'orch-4': 'h4:6543' });
  assert.equal(parseReplicaFlags(['--name', 'orch-4', '--join', 'h1:6543', '--initial-cluster-state', 'existing']).initialClusterState, 'existing');
});

test('--initial-cluster-state existing starts a member-to-be of the members --peers names', () => {
  const flags = parseReplicaFlags(['--name', 'orch-4', '--initial-cluster-state', 'existing', '--peers', 'orch-1=h1:6543,orch-4=h4:6543']);
  assert.equal(flags.initialClusterState, 'existing');
  assert.deepEqual(flags.join, []);
});

test('bad --join and --initial-cluster-state values are refused, naming the flag', () => {
  refused(['--join', 'h1'], /^--join: "h1" is not host:port/);
  refused(['--join=,'], /^--join: give the peer address/);
  refused(['--join', 'h1:6543,nope'], /^--join: "nope" is not host:port/);
  refused(['--initial-cluster-state', 'old'], /^--initial-cluster-state: "old" is neither new nor existing/);
  refused(['--join', 'h1:6543', '--initial-cluster-state', 'new'], /^--initial-cluster-state: new founds a cluster, but --join joins/);
  refused(['--initial-cluster-state', 'existing'], /^--initial-cluster-state: existing without --join needs --peers/);
});
