// kubectl's watching and chunked listing against a 3-replica cluster: a `kubectl get -w` on one
// replica sees the changes made through another, `--chunk-size` pages through the whole
// collection, `--watch-only` skips the initial state, and `get cm/x -w` follows one object.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { JsonDocumentSplitter } from '../../internal/client/json-stream.ts';
import type { TestApiClient } from '../support/api-client.ts';
import { startClusterFixture, type ClusterFixture } from '../support/cluster-fixture.ts';
import { kubectlPath, kubectlTarget } from '../support/kubectl-runner.ts';

const run = promisify(execFile);
const collection = '/api/v1/namespaces/default/configmaps';

interface WatchDocument {
  readonly type: string;
  readonly object: { metadata?: { name?: string; resourceVersion?: string }; data?: Record<string, string> };
}

/** A running `kubectl get -w`: the events it printed so far, its stderr, and a way to wait for more. */
interface KubectlWatch {
  readonly events: WatchDocument[];
  /** stdout split into lines (the table output of `--output-watch-events` without `-o`). */
  readonly lines: string[];
  stderr(): string;
  /** Waits until `count` events (JSON output) or lines (table output) were printed. */
  waitForEvents(count: number, what: string): Promise<void>;
  /** Waits until stderr matches (the -v=6 request log), e.g. that the watch request was answered. */
  waitForStderr(pattern: RegExp, what: string): Promise<void>;
}

function baseArgs(fixture: ClusterFixture, context: string): string[] {
  return kubectlTarget(fixture.cluster.kubeconfigPath, context);
}

/** Spawns kubectl with `args` (which must print watch events as JSON); it is killed by pid when the test ends. */
function spawnWatch(t: TestContext, fixture: ClusterFixture, context: string, args: readonly string[]): KubectlWatch {
  const child: ChildProcess = spawn(kubectlPath, [...baseArgs(fixture, context), ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  t.after(() => {
    if (child.exitCode === null && child.signalCode === null && child.pid !== undefined) process.kill(child.pid, 'SIGKILL');
  });
  const json = args.includes('json');
  const events: WatchDocument[] = [];
  const lines: string[] = [];
  const splitter = new JsonDocumentSplitter();
  let partialLine = '';
  let stderr = '';
  let exited = false;
  child.stdout?.on('data', (chunk: Buffer) => {
    if (json) {
      for (const document of splitter.push(chunk)) events.push(document as WatchDocument);
      return;
    }
    const parts = (partialLine + chunk.toString('utf8')).split('\n');
    partialLine = parts.pop() ?? '';
    lines.push(...parts.filter((line) => line.trim() !== ''));
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  child.once('exit', () => {
    exited = true;
  });
  const waitFor = async (done: () => boolean, what: string): Promise<void> => {
    const deadline = Date.now() + 30_000;
    while (!done()) {
      const printed = () => `${what}; printed ${JSON.stringify(json ? events.map(brief) : lines)}; stderr ${stderr.slice(-2000)}`;
      if (exited) assert.fail(`kubectl exited before ${printed()}`);
      if (Date.now() > deadline) assert.fail(`timed out: ${printed()}`);
      await sleep(50);
    }
  };
  return {
    events,
    lines,
    stderr: () => stderr,
    waitForEvents: (count, what) => waitFor(() => (json ? events.length : lines.length) >= count, what),
    waitForStderr: (pattern, what) => waitFor(() => pattern.test(stderr), what),
  };
}

function brief(event: WatchDocument): string {
  return `${event.type} ${event.object.metadata?.name ?? '?'}`;
}

async function kubectl(fixture: ClusterFixture, context: string, args: readonly string[]): Promise<{ stdout: string; stderr: string }> {
  try {
    return await run(kubectlPath, [...baseArgs(fixture, context), ...args], { timeout: 60_000, maxBuffer: 16 * 1024 * 1024 });
  } catch (error) {
    const e = error as { stderr?: string; message: string };
    throw new Error(`kubectl ${args.join(' ')} failed: ${e.stderr ?? e.message}`);
  }
}

async function create(api: TestApiClient, name: string, labels: Record<string, string>, value = 'v0'): Promise<void> {
  const res = await api.call('POST', collection, { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels }, data: { value } } });
  assert.equal(res.status, 201, res.text);
}

async function patch(api: TestApiClient, name: string, value: string): Promise<void> {
  const res = await api.call('PATCH', `${collection}/${name}`, { body: { data: { value } }, contentType: 'application/merge-patch+json' });
  assert.equal(res.status, 200, res.text);
}

async function remove(api: TestApiClient, name: string): Promise<void> {
  const res = await api.call('DELETE', `${collection}/${name}`);
  assert.equal(res.status, 200, res.text);
}

test('kubectl watches and chunked lists work across replicas', { timeout: 600_000 }, async (t) => {
  const fixture = await startClusterFixture();
  t.after(() => fixture.close());
  const [first, second] = fixture.cluster.replicas.map((r) => r.spec.name);
  const writer = fixture.clients[1];
  assert.ok(first && second && writer);

  await t.test('kubectl get -w on one replica sees ADDED, MODIFIED and DELETED made through another', async (t) => {
    await create(writer, 'before', { test: 'watch' });
    const watch = spawnWatch(t, fixture, first, ['get', 'configmaps', '-l', 'test=watch', '-w', '--output-watch-events', '-o', 'json', '-v=6']);
    await watch.waitForEvents(1, 'the existing object');
    assert.deepEqual(watch.events.map(brief), ['ADDED before']);
    await watch.waitForStderr(/GET \S+watch=true\S* 200/, 'the watch request answered');
    await create(writer, 'changing', { test: 'watch' });
    await patch(writer, 'changing', 'v1');
    await remove(writer, 'changing');
    await watch.waitForEvents(4, 'the three changes');
    assert.deepEqual(watch.events.map(brief), ['ADDED before', 'ADDED changing', 'MODIFIED changing', 'DELETED changing']);
    assert.equal(watch.events[2]?.object.data?.value, 'v1');
    const versions = watch.events.slice(1).map((e) => Number(e.object.metadata?.resourceVersion));
    assert.ok(versions.every((v, i) => i === 0 || v > (versions[i - 1] ?? 0)), `versions increase: ${versions.join(',')}`);
  });

  await t.test('kubectl get -w --output-watch-events prints a table row per event', async (t) => {
    await create(writer, 'table-before', { test: 'table' });
    const watch = spawnWatch(t, fixture, first, ['get', 'configmaps', '-l', 'test=table', '-w', '--output-watch-events', '-v=6']);
    await watch.waitForEvents(2, 'the header and the existing object');
    await watch.waitForStderr(/GET \S+watch=true\S* 200/, 'the watch request answered');
    await create(writer, 'table-new', { test: 'table' });
    await patch(writer, 'table-new', 'v1');
    await remove(writer, 'table-new');
    await watch.waitForEvents(5, 'the three changes');
    const rows = watch.lines.map((line) => line.split(/\s+/).slice(0, 3).join(' '));
    assert.deepEqual(rows, ['EVENT NAME DATA', 'ADDED table-before 1', 'ADDED table-new 1', 'MODIFIED table-new 1', 'DELETED table-new 1']);
  });

  await t.test('kubectl get --chunk-size=7 lists every object in pages of 7', async () => {
    const total = 23;
    await Promise.all(Array.from({ length: total }, (_, i) => create(writer, `chunk-${i}`, { test: 'chunk' })));
    const { stdout, stderr } = await kubectl(fixture, first, ['get', 'configmaps', '-l', 'test=chunk', '--chunk-size=7', '-o', 'name', '-v=6']);
    const names = stdout.trim().split('\n').sort();
    assert.deepEqual(names, Array.from({ length: total }, (_, i) => `configmap/chunk-${i}`).sort());
    const pages = stderr.split('\n').filter((line) => /GET \S+configmaps\?\S*limit=7\S* 200/.test(line));
    assert.equal(pages.length, Math.ceil(total / 7), `one request per page of 7:\n${stderr}`);
    assert.equal(pages.filter((line) => /continue=/.test(line)).length, Math.ceil(total / 7) - 1, 'every page after the first sends a continue token');
  });

  await t.test('kubectl get --watch-only prints only changes made after it started', async (t) => {
    await create(writer, 'old', { test: 'watch-only' });
    const watch = spawnWatch(t, fixture, first, ['get', 'configmaps', '-l', 'test=watch-only', '--watch-only', '--output-watch-events', '-o', 'json', '-v=6']);
    await watch.waitForStderr(/GET \S+watch=true\S* 200/, 'the watch request answered');
    await create(writer, 'new', { test: 'watch-only' });
    await patch(writer, 'old', 'v1');
    await watch.waitForEvents(2, 'the two changes');
    assert.deepEqual(watch.events.map(brief), ['ADDED new', 'MODIFIED old']);
  });

  await t.test('kubectl get cm/x -w follows that one object only', async (t) => {
    await create(writer, 'followed', { test: 'single' });
    const watch = spawnWatch(t, fixture, first, ['get', 'configmap/followed', '-w', '--output-watch-events', '-o', 'json', '-v=6']);
    await watch.waitForEvents(1, 'the object itself');
    await watch.waitForStderr(/GET \S+watch=true\S* 200/, 'the watch request answered');
    await create(writer, 'bystander', { test: 'single' });
    await patch(writer, 'bystander', 'v1');
    await patch(writer, 'followed', 'v1');
    await remove(writer, 'followed');
    await watch.waitForEvents(3, 'the change and the deletion');
    assert.deepEqual(watch.events.map(brief), ['ADDED followed', 'MODIFIED followed', 'DELETED followed']);
  });
});
