// The audit flags as kube-apiserver 1.28 takes them: defaults, a policy and a webhook kubeconfig
// read at start, and every bad value refused with one line naming the flag (and the file).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FlagError, parseReplicaFlags } from '../../../internal/replica/parse-flags.ts';

function withFiles(run: (dir: string, policy: string) => void): void {
  const dir = mkdtempSync(join(tmpdir(), 'orch-audit-flags-'));
  try {
    const policy = join(dir, 'policy.yaml');
    writeFileSync(policy, 'apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: Metadata\n');
    run(dir, policy);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('no policy file: no audit, whatever the backends', () => {
  assert.equal(parseReplicaFlags(['--name', 'orch-1', '--audit-log-path', '/tmp/x.log']).audit.options, undefined);
});

test('kube\'s defaults: json lines, blocking log; webhook batches of 400 within 30 s, buffer 10000, 10 QPS burst 15, backoff 10 s', () => withFiles((dir, policy) => {
  const kubeconfig = join(dir, 'webhook.kubeconfig');
  writeFileSync(kubeconfig, 'apiVersion: v1\nkind: Config\nclusters:\n- name: a\n  cluster: {server: "https://127.0.0.1:9443/audit"}\nusers:\n- name: u\n  user: {token: t}\ncontexts:\n- name: c\n  context: {cluster: a, user: u}\ncurrent-context: c\n');
  const options = parseReplicaFlags(['--name', 'orch-1', '--audit-policy-file', policy, '--audit-log-path', '-', '--audit-webhook-config-file', kubeconfig]).audit.options;
  assert.deepEqual(options?.log, { path: '-', format: 'json', maxAgeDays: 0, maxBackups: 0, maxSizeMegabytes: 0, strict: false });
  assert.equal(options?.webhook?.initialBackoffMs, 10_000);
  assert.deepEqual(options?.webhook?.batch, { bufferSize: 10_000, maxBatchSize: 400, maxBatchWaitMs: 30_000, throttleEnable: true, throttleQps: 10, throttleBurst: 15 });
  assert.equal(options?.webhook?.endpoint.url.href, 'https://127.0.0.1:9443/audit');
  assert.equal(options?.webhook?.endpoint.bearerToken, 't');
  const throttleOff = parseReplicaFlags(['--name', 'orch-1', '--audit-policy-file', policy, '--audit-webhook-config-file', kubeconfig, '--audit-webhook-batch-throttle-enable=false']).audit.options;
  assert.equal(throttleOff?.webhook?.batch.throttleEnable, false);
  assert.equal(parseReplicaFlags(['--name', 'orch-1', '--audit-policy-file', policy, '--audit-webhook-config-file', kubeconfig, '--audit-webhook-batch-throttle-enable']).audit.options?.webhook?.batch.throttleEnable, true);
}));

test('bad values are refused with one line naming the flag', () => withFiles((dir, policy) => {
  const refused: [string[], RegExp][] = [
    [['--audit-log-format=xml'], /^--audit-log-format: invalid audit log format xml, allowed formats are "json,legacy"$/],
    [['--audit-log-maxage=-1'], /^--audit-log-maxage: -1 can't be a negative number$/],
    [['--audit-log-maxsize=ten'], /^--audit-log-maxsize: "ten" is not an integer$/],
    [['--audit-log-mode=batch'], /^--audit-log-mode: batch is not supported/],
    [['--audit-webhook-mode=blocking'], /^--audit-webhook-mode: blocking is not supported/],
    [['--audit-webhook-batch-max-size=0'], /^--audit-webhook-batch-max-size: 0 must be a positive number$/],
    [['--audit-webhook-batch-max-wait=soon'], /^--audit-webhook-batch-max-wait: "soon" is not a duration/],
    [['--audit-webhook-batch-throttle-qps=0'], /^--audit-webhook-batch-throttle-qps: "0" must be a positive number$/],
    [['--audit-log-version=audit.k8s.io/v1beta1'], /^--audit-log-version: "audit.k8s.io\/v1beta1" is not supported/],
    [['--audit-webhook-config-file', join(dir, 'missing')], /^--audit-webhook-config-file: .*missing: ENOENT/],
  ];
  for (const [args, message] of refused) {
    assert.throws(() => parseReplicaFlags(['--name', 'orch-1', '--audit-policy-file', policy, ...args]), (err: unknown) => err instanceof FlagError && message.test(err.message) && !err.message.includes('\n'), args.join(' '));
  }
  const bad = join(dir, 'bad.yaml');
  writeFileSync(bad, 'apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: Loud\n');
  assert.throws(() => parseReplicaFlags(['--name', 'orch-1', '--audit-policy-file', bad]), (err: unknown) => err instanceof FlagError && err.message === `--audit-policy-file: rules[0].level: Unsupported value: "Loud": supported values: "Metadata", "None", "Request", "RequestResponse": from file ${bad}`);
}));
