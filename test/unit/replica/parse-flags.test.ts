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

test('service ranges default to 10.96.0.0/12 and 30000-32767; two CIDRs of different families make a dual-stack cluster', () => {
  const defaults = parseReplicaFlags(['--name', 'orch-1']).serviceNetwork;
  assert.deepEqual(defaults.ipRanges.map((r) => r.cidr), ['10.96.0.0/12']);
  assert.deepEqual(defaults.nodePorts, { base: 30000, size: 2768 });
  const dual = parseReplicaFlags(['--name', 'orch-1', '--service-cluster-ip-range', '10.96.0.0/12,fd00:10:96::/112', '--service-node-port-range', '31000-31999']).serviceNetwork;
  assert.deepEqual(dual.ipRanges.map((r) => [r.family, r.cidr]), [['IPv4', '10.96.0.0/12'], ['IPv6', 'fd00:10:96::/112']]);
  assert.deepEqual(dual.nodePorts, { base: 31000, size: 1000 });
  assert.deepEqual(parseReplicaFlags(['--name', 'orch-1', '--service-node-port-range', '30000+99']).serviceNetwork.nodePorts, { base: 30000, size: 100 });
});

test('bad service ranges are refused with the flag they came from', () => {
  const refused: [string[], RegExp][] = [
    [['--service-cluster-ip-range', '10.96.0.0'], /^--service-cluster-ip-range: "10\.96\.0\.0" is not a CIDR/],
    [['--service-cluster-ip-range', '10.0.0.0/8'], /^--service-cluster-ip-range: "10\.0\.0\.0\/8" is too large; for 32-bit addresses, the mask must be >= 12$/],
    [['--service-cluster-ip-range', '10.96.0.0/12,10.100.0.0/16'], /^--service-cluster-ip-range: .* must be of different IP families/],
    [['--service-cluster-ip-range', 'fd00::/64'], /^--service-cluster-ip-range: "fd00::\/64" is too large; for 128-bit addresses, the mask must be >= 108$/],
    [['--service-node-port-range', '32767-30000'], /^--service-node-port-range: "32767-30000" is not a port range/],
    [['--service-node-port-range', '30000-70000'], /^--service-node-port-range: /],
  ];
  for (const [extra, message] of refused) {
    assert.throws(() => parseReplicaFlags(['--name', 'orch-1', ...extra]), (err: unknown) => err instanceof FlagError && message.test(err.message), extra.join(' '));
  }
});
