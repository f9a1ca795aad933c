import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { replicaArgs, replicaFlags, type ReplicaSpec } from '../../../internal/cluster/replica-process.ts';
import { parseDurationMs, parseReplicaFlags } from '../../../internal/replica/parse-flags.ts';
import { repoRoot } from '../../../internal/cluster/build-layout.ts';
import { execArgv, parseEnvironmentFile, parseUnitFile, unitSetting } from './systemd-unit.ts';

const unit = parseUnitFile(readFileSync(join(repoRoot, 'deploy/systemd/orch-apiserver.service'), 'utf8'));
const exampleEnv = parseEnvironmentFile(readFileSync(join(repoRoot, 'deploy/systemd/orch-apiserver.env.example'), 'utf8'));

/** The host's replica as the e2e tests would describe it: the env file's values, the unit's paths (deploy/README.md's layout). */
function hostSpec(env: Readonly<Record<string, string>>): ReplicaSpec {
  const peers = Object.fromEntries((env['ORCH_PEERS'] ?? '').split(',').map((item) => item.split('=') as [string, string]));
  const extraArgs = (env['ORCH_EXTRA_FLAGS'] ?? '').split(/\s+/).filter((w) => w !== '');
  return {
    name: env['ORCH_NAME'] ?? '',
    dataDir: '/var/lib/orch',
    pkiDir: '/etc/orch/pki',
    authentication: {
      clientCaFile: '/etc/orch/pki/client-ca.crt',
      serviceAccountKeyFile: '/etc/orch/pki/sa.pub',
      serviceAccountSigningKeyFile: '/etc/orch/pki/sa.key',
      serviceAccountIssuer: 'https://kubernetes.default.svc.cluster.local',
    },
    apiAddress: env['ORCH_ADVERTISE_ADDRESS'] ?? '',
    peerAddress: env['ORCH_PEER_ADDRESS'] ?? '',
    peers,
    shutdownDelay: '5s',
    ...(extraArgs.length === 0 ? {} : { extraArgs }),
  };
}

/** The unit's ExecStart with `env`: the node executable, the entry point, and the flags. */
function unitCommandLine(env: Readonly<Record<string, string>>): { node: string; entryPoint: string; flags: string[] } {
  const [node = '', entryPoint = '', ...flags] = execArgv(unitSetting(unit, 'Service', 'ExecStart'), env);
  return { node, entryPoint, flags };
}

test('the unit runs the compiled orch-apiserver with the flags the e2e tests start a replica with, in order', () => {
  const line = unitCommandLine(exampleEnv);
  assert.equal(line.node, '/usr/bin/node');
  assert.equal(line.entryPoint, '/opt/orch/dist/cmd/orch-apiserver.js', 'scripts/build.sh output installed at /opt/orch');
  assert.deepEqual(line.flags, replicaFlags(hostSpec(exampleEnv)));
});

test('replicaArgs is node\'s arguments and the entry point, then exactly replicaFlags', () => {
  const spec = hostSpec(exampleEnv);
  const args = replicaArgs(spec);
  assert.deepEqual(args.slice(args.length - replicaFlags(spec).length), replicaFlags(spec));
  assert.ok(args.some((a) => a.endsWith('orch-apiserver.ts') || a.endsWith('orch-apiserver.js')));
});

test('ORCH_EXTRA_FLAGS becomes separate arguments at the end, as the e2e tests\' extra arguments do', () => {
  const env = { ...exampleEnv, ORCH_EXTRA_FLAGS: '--v 2  --audit-log-path /var/log/orch/audit.log' };
  const line = unitCommandLine(env);
  assert.deepEqual(line.flags.slice(-4), ['--v', '2', '--audit-log-path', '/var/log/orch/audit.log']);
  assert.deepEqual(line.flags, replicaFlags(hostSpec(env)));
});

test('orch-apiserver accepts the unit\'s command line and reads the env file\'s values from it', () => {
  const flags = parseReplicaFlags(unitCommandLine(exampleEnv).flags);
  assert.equal(flags.name, exampleEnv['ORCH_NAME']);
  assert.equal(flags.dataDir, '/var/lib/orch');
  assert.equal(flags.pkiDir, '/etc/orch/pki');
  assert.deepEqual(Object.keys(flags.peers), ['orch-1', 'orch-2', 'orch-3']);
  assert.equal(`${flags.advertiseAddress.host}:${flags.advertiseAddress.port}`, exampleEnv['ORCH_ADVERTISE_ADDRESS']);
});

test('systemd waits longer than the shutdown delay before it kills the replica', () => {
  const flags = parseReplicaFlags(unitCommandLine(exampleEnv).flags);
  const timeoutStopMs = parseDurationMs(unitSetting(unit, 'Service', 'TimeoutStopSec'), 'TimeoutStopSec');
  assert.ok(flags.shutdownDelayMs > 0, 'a host behind a load balancer drains before it stops');
  assert.ok(timeoutStopMs >= flags.shutdownDelayMs + 30_000, `TimeoutStopSec ${timeoutStopMs} ms leaves time to hand leadership off after the ${flags.shutdownDelayMs} ms delay`);
});

test('the unit writes only its data and log directories, as user orch, and restarts on failure', () => {
  const service = (key: string): string => unitSetting(unit, 'Service', key);
  assert.equal(service('User'), 'orch');
  assert.equal(service('ProtectSystem'), 'strict');
  assert.equal(service('ReadWritePaths'), '/var/lib/orch /var/log/orch');
  assert.equal(service('StateDirectory'), 'orch');
  assert.equal(service('EnvironmentFile'), '/etc/orch/orch-apiserver.env');
  assert.equal(service('Restart'), 'on-failure');
  for (const key of ['NoNewPrivileges', 'ProtectHome', 'PrivateTmp']) assert.equal(service(key), 'yes', key);
});
