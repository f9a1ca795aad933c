import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { TestServer } from './harness.ts';
import { testToken } from './harness.ts';

/** The kubectl the tests run, as a user of the machine would. */
export const kubectlPath = '/usr/bin/kubectl';

const run = promisify(execFile);

/** kubectl pointed at one in-process test server, through a kubeconfig of its own. */
export interface KubectlSession {
  /** The directory holding the kubeconfig and kubectl's cache; tests may put manifests there. */
  readonly dir: string;
  /** Runs kubectl; rejects on a non-zero exit (the error carries stdout and stderr). */
  full(...args: string[]): Promise<{ stdout: string; stderr: string }>;
  /** Runs kubectl and answers its stdout; rejects on a non-zero exit. */
  run(...args: string[]): Promise<string>;
  /** Removes the directory (the caller closes the server). */
  remove(): void;
}

/** A kubectl session against `server`, trusting its certificate and using the test token, namespace `default`. */
export function kubectlSession(server: TestServer, dirPrefix: string): KubectlSession {
  const dir = mkdtempSync(join(tmpdir(), dirPrefix));
  const kubeconfig = join(dir, 'kubeconfig');
  writeFileSync(
    kubeconfig,
    `apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster:\n    server: ${server.baseUrl}\n    certificate-authority-data: ${Buffer.from(server.tls.cert).toString('base64')}\nusers:\n- name: u\n  user:\n    token: ${testToken}\ncontexts:\n- name: x\n  context: {cluster: c, user: u, namespace: default}\ncurrent-context: x\n`,
  );
  const full = (...args: string[]) => run(kubectlPath, ['--kubeconfig', kubeconfig, '--cache-dir', join(dir, 'cache'), ...args], { timeout: 20_000 });
  return {
    dir,
    full,
    run: async (...args) => (await full(...args)).stdout,
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
