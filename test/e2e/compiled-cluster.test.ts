// `make run` as a user runs it: the compiled build (scripts/build.sh) started by its own entry
// point, every replica a compiled process too, serving kubectl, and stopped by a signal.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { childPidsOf, isRunning, killPid } from '../../bench/cleanup.ts';
import { repoRoot } from '../../internal/cluster/build-layout.ts';
import { freeConsecutivePorts } from '../support/free-ports.ts';
import { kubectlPath, kubectlTarget } from '../support/kubectl-runner.ts';

const run = promisify(execFile);

/** Resolves once `pattern` appears in the child's output; rejects on its exit or after `timeoutMs`. */
function waitForOutput(child: ChildProcess, pattern: RegExp, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`no ${pattern} within ${timeoutMs} ms; output:\n${output}`)), timeoutMs);
    const onData = (chunk: Buffer): void => {
      output += chunk.toString('utf8');
      if (!pattern.test(output)) return;
      clearTimeout(timer);
      resolve();
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${code} before ${pattern}; output:\n${output}`));
    });
  });
}

test('the compiled cluster make run starts serves kubectl from compiled replicas and stops on SIGTERM', { timeout: 300_000 }, async (t) => {
  // Compiled itself (make test), this test runs from the build it checks, scripts/build.sh's output
  // with the tests beside it; through tsx, it builds first.
  if (!import.meta.url.endsWith('.js')) await run(join(repoRoot, 'scripts', 'build.sh'), { cwd: repoRoot, timeout: 180_000 });
  const dir = mkdtempSync(join(tmpdir(), 'orch-compiled-'));
  const kubeconfig = join(dir, 'kubeconfig');
  const apiPort = await freeConsecutivePorts(6);
  const peerPort = apiPort + 3;
  const cluster = spawn(process.execPath, [join(repoRoot, 'dist', 'cmd', 'orch-cluster.js'),
    '--data-dir', join(dir, 'data'), '--kubeconfig', kubeconfig, '--api-port', String(apiPort), '--peer-port', String(peerPort)],
  { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  const pid = cluster.pid;
  assert.ok(pid !== undefined, 'the cluster process started');
  let replicaPids: number[] = [];
  t.after(() => {
    // The replicas' pids first: killed, the cluster process leaves them to init.
    for (const replica of [...childPidsOf(pid), ...replicaPids]) killPid(replica);
    killPid(pid);
    rmSync(dir, { recursive: true, force: true });
  });

  await waitForOutput(cluster, /orch is running/, 120_000);
  replicaPids = childPidsOf(pid);
  assert.equal(replicaPids.length, 3, 'three replica processes');
  for (const replica of replicaPids) {
    const commandLine = readFileSync(`/proc/${replica}/cmdline`, 'utf8').split('\0').join(' ');
    assert.match(commandLine, /dist\/cmd\/orch-apiserver\.js --name orch-\d/);
    assert.doesNotMatch(commandLine, /tsx/);
  }

  const kubectl = async (context: string, ...args: string[]): Promise<string> =>
    (await run(kubectlPath, [...kubectlTarget(kubeconfig, context), ...args], { timeout: 60_000 })).stdout;
  assert.match(await kubectl('orch-1', 'create', 'configmap', 'built', '--from-literal=from=dist'), /configmap\/built created/);
  assert.equal(await kubectl('orch-3', 'get', 'configmap', 'built', '-o', 'jsonpath={.data.from}'), 'dist');

  const exited = new Promise<number | null>((resolve) => cluster.once('exit', (code) => resolve(code)));
  process.kill(pid, 'SIGTERM');
  assert.equal(await exited, 0);
  assert.deepEqual(replicaPids.filter(isRunning), [], 'no replica outlives the cluster process');
});
