import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { basename, dirname, join } from 'node:path';
import type { ClusterFixture } from './cluster-fixture.ts';

/** The kubectl the end-to-end tests run, as a user of the machine would. */
export const kubectlPath = '/usr/bin/kubectl';

/**
 * kubectl's flags for `context` of the kubeconfig at `kubeconfigPath`, with a cache of that
 * kubeconfig's own beside it: kubectl's default cache ($HOME/.kube/cache) is keyed by host and port
 * and trusted for 6 hours, so a cluster on a port an earlier test's cluster had would get that
 * cluster's discovery, and a second kubeconfig of the same cluster (another user's) the first
 * one's (a request that should have failed on discovery goes out instead).
 */
export function kubectlTarget(kubeconfigPath: string, context: string): string[] {
  return ['--kubeconfig', kubeconfigPath, '--cache-dir', join(dirname(kubeconfigPath), `${basename(kubeconfigPath)}.kubectl-cache`), '--context', context];
}

/** What one kubectl run gave. */
export interface KubectlResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs kubectl against replica `replica` (0-based, taken modulo the replica count). */
export type KubectlOn = (replica: number, args: readonly string[], input?: string) => Promise<KubectlResult>;

/**
 * A kubectl runner for the fixture's cluster: each call names the replica it goes through (its
 * context in the fixture's kubeconfig). Never throws for a non-zero exit; a run is killed after 60 s.
 */
export function kubectlOn(fixture: ClusterFixture): KubectlOn {
  const replicas = fixture.cluster.replicas;
  return (replica, args, input) => new Promise((resolve) => {
    const context = replicas[replica % replicas.length]?.spec.name;
    assert.ok(context !== undefined, 'the fixture has replicas');
    const child = execFile(kubectlPath, [...kubectlTarget(fixture.cluster.kubeconfigPath, context), ...args], { timeout: 60_000 }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : -1;
      resolve({ code, stdout, stderr: error !== null && stderr === '' ? error.message : stderr });
    });
    child.stdin?.end(input ?? '');
  });
}

/** The stdout of a run that must have succeeded; the assertion names the command and its stderr. */
export function succeeded(result: KubectlResult, what: string): string {
  assert.equal(result.code, 0, `kubectl ${what} failed: ${result.stderr}`);
  return result.stdout;
}
