// `make run` as a user runs it: the compiled build (scripts/build.sh) started by its own entry
// point, every replica a compiled process too, serving kubectl, and stopped by a signal.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { repoRoot } from '../../internal/cluster/build-layout.ts';
import { freeConsecutivePorts } from '../support/free-ports.ts';

const run = promisify(execFile);
const kubectlPath = '/usr/bin/kubectl';

/** The command lines of the live processes whose parent is `pid`. */
function childCommandLines(pid: number): string[] {
  const lines: string[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (parent === pid) lines.push(readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').join(' '));
    } catch {
      // The process ended while being read.
    }
  }
  return lines;
}

/** Resolves with the output so far once `pattern` appears in it; rejects on exit or after `timeoutMs`. */
function waitForOutput(child: ReturnType<typeof spawn>, pattern: RegExp, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`no ${pattern} within ${timeoutMs} ms; output:\n${output}`)), timeoutMs);
    const onData = (chunk: Buffer): void => {
      output += chunk.toString('utf8');
      if (pattern.test(output)) {
        clearTimeout(timer);
        resolve(output);
      }
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
  await run(join(repoRoot, 'scripts', 'build.sh'), { cwd: repoRoot, timeout: 180_000 });
  const dir = mkdtempSync(join(tmpdir(), 'orch-compiled-'));
  const kubeconfig = join(dir, 'kubeconfig');
  const [apiPort, peerPort] = [await freeConsecutivePorts(3), await freeConsecutivePorts(3)];
  // Its own process group: the replicas are killed with it even if the test fails half-way.
  const cluster = spawn(process.execPath, [join(repoRoot, 'dist', 'cmd', 'orch-cluster.js'),
    '--data-dir', join(dir, 'data'), '--kubeconfig', kubeconfig, '--api-port', String(apiPort), '--peer-port', String(peerPort)],
  { cwd: dir, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  const pid = cluster.pid;
  assert.ok(pid !== undefined, 'the cluster process started');
  t.after(() => {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
    rmSync(dir, { recursive: true, force: true });
  });

  await waitForOutput(cluster, /orch is running/, 120_000);
  const replicas = childCommandLines(pid);
  assert.equal(replicas.length, 3, `three replica processes: ${replicas.join('\n')}`);
  for (const line of replicas) {
    assert.match(line, /dist\/cmd\/orch-apiserver\.js --name orch-\d/);
    assert.doesNotMatch(line, /tsx/);
  }

  const kubectl = async (context: string, ...args: string[]): Promise<string> =>
    (await run(kubectlPath, ['--kubeconfig', kubeconfig, '--context', context, ...args], { timeout: 60_000 })).stdout;
  assert.match(await kubectl('orch-1', 'create', 'configmap', 'built', '--from-literal=from=dist'), /configmap\/built created/);
  assert.match(await kubectl('orch-3', 'get', 'configmap', 'built', '-o', 'jsonpath={.data.from}'), /^dist$/);

  const exited = new Promise<number | null>((resolve) => cluster.once('exit', (code) => resolve(code)));
  process.kill(pid, 'SIGTERM');
  assert.equal(await exited, 0);
  assert.deepEqual(childCommandLines(pid), [], 'no replica outlives the cluster process');
});
