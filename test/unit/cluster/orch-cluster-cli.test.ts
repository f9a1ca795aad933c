// orch-cluster's command line: --help prints the flags and exits 0; an unknown flag is one error
// line; everything after `--` goes to every replica, {replica} replaced by its name.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'node:test';
import { repoRoot } from '../../../internal/cluster/build-layout.ts';
import { replicaPassThroughArgs, splitPassThrough } from '../../../internal/cluster/pass-through.ts';

const entry = join(repoRoot, 'cmd', 'orch-cluster.ts');

test('--help (and -h) prints usage, one line a flag, and exits 0', () => {
  for (const flag of ['--help', '-h']) {
    const run = spawnSync(process.execPath, ['--import', 'tsx', entry, flag], { encoding: 'utf8', timeout: 30_000 });
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stdout, /^Usage: orch-cluster \[flags\] \[-- replica flags\.\.\.\]/);
    for (const name of ['--data-dir', '--kubeconfig', '--host', '--api-port', '--peer-port', '--replicas', '--v', '--tracing-config-file', '--help', '{replica}']) assert.ok(run.stdout.includes(name), name);
  }
  const bad = spawnSync(process.execPath, ['--import', 'tsx', entry, '--bogus'], { encoding: 'utf8', timeout: 30_000 });
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /"level":"error".*Unknown option '--bogus' \(orch-cluster --help lists the flags\)/);
});

test('arguments after -- go to every replica, {replica} replaced', () => {
  const { own, passThrough } = splitPassThrough(['--replicas', '2', '--', '--audit-policy-file', 'p.yaml', '--audit-log-path', '/var/log/{replica}/audit-{replica}.log', '--', 'x']);
  assert.deepEqual(own, ['--replicas', '2']);
  assert.deepEqual(replicaPassThroughArgs(passThrough, 'orch-2'), ['--audit-policy-file', 'p.yaml', '--audit-log-path', '/var/log/orch-2/audit-orch-2.log', '--', 'x']);
  assert.deepEqual(splitPassThrough(['--v=3']), { own: ['--v=3'], passThrough: [] });
});
