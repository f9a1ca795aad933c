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
  assert.deepEqual(options?.log, { path: '-', format: 'json', maxAgeDays: 0, maxBackups: 0, maxSizeMegabytes: 0, strict: false, compress: false });
  assert.equal(options?.webhook?.truncate, undefined);
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
    [['--audit-log-mode=async'], /^--audit-log-mode: invalid audit log mode async, allowed modes are "batch,blocking,blocking-strict"$/],
    [['--audit-log-compress=maybe'], /^--audit-log-compress: "maybe" is not true or false$/],
    [['--audit-log-mode=batch', '--audit-log-batch-buffer-size=0'], /^--audit-log-batch-buffer-size: invalid audit batch log buffer size 0, must be a positive number$/],
    [['--audit-log-mode=batch', '--audit-log-batch-max-size=-1'], /^--audit-log-batch-max-size: invalid audit batch log max batch size -1, must be a positive number$/],
    [['--audit-log-mode=batch', '--audit-log-batch-throttle-enable'], /^--audit-log-batch-throttle-qps: invalid audit batch log throttle QPS 0, must be a positive number$/],
    [['--audit-log-mode=batch', '--audit-log-batch-throttle-enable', '--audit-log-batch-throttle-qps=5'], /^--audit-log-batch-throttle-burst: invalid audit batch log throttle burst 0, must be a positive number$/],
    [['--audit-log-batch-max-wait=later'], /^--audit-log-batch-max-wait: "later" is not a duration/],
    [['--audit-log-batch-buffer-size=many'], /^--audit-log-batch-buffer-size: "many" is not an integer$/],
    [['--audit-log-truncate-enabled', '--audit-log-truncate-max-event-size=0'], /^--audit-log-truncate-max-event-size: invalid audit truncate log max event size 0, must be a positive number$/],
    [['--audit-webhook-truncate-enabled=true', '--audit-webhook-truncate-max-batch-size=10', '--audit-webhook-truncate-max-event-size=20'], /^--audit-webhook-truncate-max-batch-size: invalid audit truncate webhook max batch size 10, must be greater than max event size \(20\)$/],
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

test('every kube 1.28 audit flag is taken: compress, log batch (batch mode), truncate for both backends, the deprecated initial backoff', () => withFiles((dir, policy) => {
  const kubeconfig = join(dir, 'webhook.kubeconfig');
  writeFileSync(kubeconfig, 'apiVersion: v1\nkind: Config\nclusters:\n- name: a\n  cluster: {server: "https://127.0.0.1:9443/audit"}\nusers:\n- name: u\n  user: {token: t}\ncontexts:\n- name: c\n  context: {cluster: a, user: u}\ncurrent-context: c\n');
  const base = ['--name', 'orch-1', '--audit-policy-file', policy, '--audit-log-path', join(dir, 'audit.log'), '--audit-webhook-config-file', kubeconfig];
  // kube's log batch defaults are accepted unused (throttle off, QPS and burst 0), and so are bad sizes when not enabled.
  const defaults = parseReplicaFlags([...base, '--audit-log-batch-throttle-qps=0', '--audit-log-truncate-max-event-size=0']).audit.options;
  assert.equal(defaults?.log?.batch, undefined);
  assert.equal(defaults?.log?.truncate, undefined);
  const parsed = parseReplicaFlags([
    ...base, '--audit-log-compress', '--audit-log-mode=batch', '--audit-log-batch-buffer-size=500', '--audit-log-batch-max-size=10', '--audit-log-batch-max-wait=2s',
    '--audit-log-batch-throttle-enable=true', '--audit-log-batch-throttle-qps=2.5', '--audit-log-batch-throttle-burst=3',
    '--audit-log-truncate-enabled', '--audit-log-truncate-max-batch-size=2048', '--audit-log-truncate-max-event-size=1024',
    '--audit-webhook-truncate-enabled', '--audit-webhook-batch-initial-backoff=3s', '--audit-webhook-mode=batch', '--audit-log-version=audit.k8s.io/v1', '--audit-webhook-version=audit.k8s.io/v1',
  ]).audit;
  const log = parsed.options?.log;
  assert.equal(log?.compress, true);
  assert.equal(log?.strict, false);
  assert.deepEqual(log?.batch, { bufferSize: 500, maxBatchSize: 10, maxBatchWaitMs: 2000, throttleEnable: true, throttleQps: 2.5, throttleBurst: 3 });
  assert.deepEqual(log?.truncate, { maxBatchBytes: 2048, maxEventBytes: 1024 });
  assert.deepEqual(parsed.options?.webhook?.truncate, { maxBatchBytes: 10_485_760, maxEventBytes: 102_400 });
  assert.equal(parsed.options?.webhook?.initialBackoffMs, 3000);
  assert.ok(parsed.warnings.some((w) => w.includes('--audit-webhook-batch-initial-backoff is deprecated')));
  const batchDefaults = parseReplicaFlags([...base, '--audit-log-mode=batch']).audit.options?.log?.batch;
  assert.deepEqual(batchDefaults, { bufferSize: 10_000, maxBatchSize: 1, maxBatchWaitMs: 0, throttleEnable: false, throttleQps: 0, throttleBurst: 0 });
}));
