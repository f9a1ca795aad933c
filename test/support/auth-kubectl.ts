// kubectl as someone other than the admin: a kubeconfig with the fixture's clusters and contexts
// (one per replica) but a user with no credentials, so that `--token` is the only one sent (with
// the fixture's kubeconfig the admin's client certificate would go too, and kube's x509
// authenticator comes before bearer tokens), and a token minted with kubectl create token.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { parse, stringify } from 'yaml';
import type { ClusterFixture } from './cluster-fixture.ts';
import { kubectlPath, kubectlTarget, type KubectlOn } from './kubectl-runner.ts';

/** Writes at `path` the fixture's kubeconfig with its user's credentials removed. */
export function writeCredentialFreeKubeconfig(fixture: ClusterFixture, path: string): void {
  const config = parse(readFileSync(fixture.cluster.kubeconfigPath, 'utf8')) as { users: { name: string; user: Record<string, unknown> }[] };
  assert.ok(config.users.length > 0, 'the fixture kubeconfig has a user');
  for (const user of config.users) user.user = {};
  writeFileSync(path, stringify(config), { mode: 0o600 });
}

/** A runner like kubectlOn's, with the kubeconfig at `kubeconfigPath` and `--token` set to `token`. */
export function kubectlWithToken(fixture: ClusterFixture, kubeconfigPath: string, token: string): KubectlOn {
  const replicas = fixture.cluster.replicas;
  return (replica, args, input) => new Promise((resolve) => {
    const context = replicas[replica % replicas.length]?.spec.name;
    assert.ok(context !== undefined, 'the fixture has replicas');
    const child = execFile(kubectlPath, [...kubectlTarget(kubeconfigPath, context), `--token=${token}`, ...args], { timeout: 60_000 }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : -1;
      resolve({ code, stdout, stderr: error !== null && stderr === '' ? error.message : stderr });
    });
    child.stdin?.end(input ?? '');
  });
}

/** The claims of a JWT's payload (not verified). */
export function jwtClaims(token: string): Record<string, unknown> {
  const payload = token.split('.')[1];
  assert.ok(payload !== undefined, 'a JWT has a payload');
  return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
}

/** Retries `run` every 200 ms until it exits 0 (authorization follows the store on each replica), at most `timeoutMs`; returns the last result. */
export async function untilSucceeds<T extends { code: number }>(run: () => Promise<T>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const result = await run();
    if (result.code === 0 || Date.now() > deadline) return result;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
