import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FlagError, parseReplicaFlags } from '../../../internal/replica/parse-flags.ts';

test('--authorization-mode defaults to RBAC and takes an ordered list', () => {
  assert.deepEqual(parseReplicaFlags(['--name', 'orch-1']).authorization, { modes: ['RBAC'] });
  assert.deepEqual(parseReplicaFlags(['--name', 'orch-1', '--authorization-mode', 'AlwaysDeny,RBAC']).authorization.modes, ['AlwaysDeny', 'RBAC']);
});

test('the Webhook mode needs its config file, takes its version and cache lifetimes, and the file needs the mode', () => {
  const flags = parseReplicaFlags(['--name', 'orch-1', '--authorization-mode', 'RBAC,Webhook', '--authorization-webhook-config-file', '/etc/authz.kubeconfig', '--authorization-webhook-version', 'v1', '--authorization-webhook-cache-authorized-ttl', '1m', '--authorization-webhook-cache-unauthorized-ttl', '5s']);
  assert.deepEqual(flags.authorization, { modes: ['RBAC', 'Webhook'], webhook: { configFile: '/etc/authz.kubeconfig', version: 'v1', authorizedTtlMs: 60_000, unauthorizedTtlMs: 5000 } });
  assert.deepEqual(parseReplicaFlags(['--name', 'orch-1', '--authorization-mode', 'Webhook', '--authorization-webhook-config-file', 'f']).authorization.webhook, { configFile: 'f', version: 'v1beta1', authorizedTtlMs: 300_000, unauthorizedTtlMs: 30_000 });
  assert.throws(() => parseReplicaFlags(['--name', 'orch-1', '--authorization-mode', 'Webhook']), (e: Error) => e instanceof FlagError && /--authorization-webhook-config-file/.test(e.message));
  assert.throws(() => parseReplicaFlags(['--name', 'orch-1', '--authorization-webhook-config-file', 'f']), FlagError);
  assert.throws(() => parseReplicaFlags(['--name', 'orch-1', '--authorization-mode', 'Webhook', '--authorization-webhook-config-file', 'f', '--authorization-webhook-version', 'v2']), FlagError);
});

test('an unknown or repeated mode is refused as kube-apiserver refuses to start', () => {
  assert.throws(() => parseReplicaFlags(['--name', 'orch-1', '--authorization-mode', 'ABAC']), /--authorization-mode: authorization-mode "ABAC" is not a valid mode/);
  assert.throws(() => parseReplicaFlags(['--name', 'orch-1', '--authorization-mode', 'RBAC,RBAC']), /has mode specified more than once/);
});
