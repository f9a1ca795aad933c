import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FlagError, parseBytes, parseDurationMs, parseReplicaFlags } from '../../../internal/replica/parse-flags.ts';

test('a replica started with only its name gets the documented defaults', () => {
  const flags = parseReplicaFlags(['--name', 'orch-1']);
  assert.equal(flags.dataDir, '.orch/data/orch-1');
  assert.deepEqual(flags.advertiseAddress, { host: '127.0.0.1', port: 6443 });
  assert.deepEqual(flags.peers, { 'orch-1': '127.0.0.1:6543' });
  assert.equal(flags.retentionMs, 5 * 60_000);
  assert.equal(flags.snapshotEveryEntries, undefined);
  assert.equal(flags.snapshotEveryBytes, undefined);
});

test('snapshot flags take entry counts and byte counts with binary suffixes', () => {
  const flags = parseReplicaFlags(['--name', 'orch-1', '--snapshot-every-entries', '5000', '--snapshot-every-bytes', '64Mi', '--snapshot-catch-up-entries', '100']);
  assert.equal(flags.snapshotEveryEntries, 5000);
  assert.equal(flags.snapshotEveryBytes, 64 * 1024 * 1024);
  assert.equal(flags.snapshotCatchUpEntries, 100);
  assert.equal(parseBytes('1048576', 'x'), 1048576);
  assert.equal(parseBytes('512Ki', 'x'), 512 * 1024);
  assert.equal(parseBytes('1Gi', 'x'), 1024 ** 3);
});

test('a byte count that is not a positive integer with Ki, Mi or Gi is refused, naming the flag', () => {
  for (const bad of ['0', '-1', '1.5Mi', '10MB', '256 Mi', 'Mi', '', '99999999999Gi']) {
    // The `=` form: a value starting with a dash would otherwise read as another flag.
    assert.throws(() => parseReplicaFlags(['--name', 'orch-1', `--snapshot-every-bytes=${bad}`]), (err: unknown) => {
      assert.ok(err instanceof FlagError);
      assert.match(err.message, /^--snapshot-every-bytes: ".*" is not a positive byte count/);
      return true;
    }, bad);
  }
});

test('durations read as Go durations and anything else is refused', () => {
  assert.equal(parseDurationMs('1m30s', 'x'), 90_000);
  assert.equal(parseDurationMs('300ms', 'x'), 300);
  assert.equal(parseDurationMs('0', 'x'), 0);
  for (const bad of ['5', '5 s', '1d', 's', '1m30']) {
    assert.throws(() => parseReplicaFlags(['--name', 'orch-1', '--watch-history-retention', bad]), (err: unknown) => err instanceof FlagError && /^--watch-history-retention: ".*" is not a duration/.test(err.message), bad);
  }
});

test('bad names, addresses, peers and counts are refused with the flag they came from', () => {
  const refused: [string[], RegExp][] = [
    [[], /--name is required/],
    [['--name', 'Orch_1'], /--name is required: a DNS label/],
    [['--name', 'orch-1', '--advertise-address', 'localhost'], /--advertise-address: "localhost" is not host:port/],
    [['--name', 'orch-1', '--peer-address', 'h:70000'], /--peer-address: "h:70000" is not host:port/],
    [['--name', 'orch-1', '--peers', 'orch-1'], /--peers: "orch-1" is not name=host:port/],
    [['--name', 'orch-1', '--peers', 'orch-2=127.0.0.1:1'], /--peers must include this replica \(orch-1\)/],
    [['--name', 'orch-1', '--api-domain', 'Bad_Domain'], /--api-domain: "Bad_Domain" is not a DNS name/],
    [['--name', 'orch-1', '--tick-ms', '0'], /--tick-ms: "0" is not a positive integer/],
    [['--name', 'orch-1', '--tick-ms', '3000000000'], /--tick-ms: 3000000000 is more than 60000/],
    [['--name', 'orch-1', '--snapshot-every-entries', '1e3'], /--snapshot-every-entries: "1e3" is not a positive integer/],
    [['--name', 'orch-1', '--election-ticks', '0x10'], /--election-ticks: "0x10" is not a positive integer/],
  ];
  for (const [argv, message] of refused) {
    assert.throws(() => parseReplicaFlags(argv), (err: unknown) => err instanceof FlagError && message.test(err.message), argv.join(' '));
  }
});

test('an unknown flag is refused by the argument parser, not ignored', () => {
  assert.throws(() => parseReplicaFlags(['--name', 'orch-1', '--snapshot-count', '5']), (err: unknown) => (err as { code?: string }).code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION');
});
