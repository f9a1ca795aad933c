// Namespace deletion as kubectl sees it on a real 3-process cluster: the namespace controller runs
// on the Raft leader only, empties a terminating namespace, waits for its objects' finalizers, and
// a new leader finishes a deletion the old one (SIGKILLed) started.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { startClusterFixture, type ClusterFixture } from '../support/cluster-fixture.ts';
import { kubectlPath, kubectlTarget } from '../support/kubectl-runner.ts';

const run = promisify(execFile);

let fixture: ClusterFixture;
before(async () => {
  fixture = await startClusterFixture();
});
after(() => fixture.close());

/** Runs kubectl against replica `context`; returns stdout, or throws with stderr. */
async function kubectl(context: string, args: string[], input?: string): Promise<string> {
  const child = run(kubectlPath, [...kubectlTarget(fixture.cluster.kubeconfigPath, context), ...args], { timeout: 90_000 });
  if (input !== undefined) child.child.stdin?.end(input);
  try {
    return (await child).stdout;
  } catch (error) {
    const e = error as { stderr?: string; message: string };
    throw new Error(`kubectl --context ${context} ${args.join(' ')} failed: ${e.stderr ?? e.message}`);
  }
}

/** Polls `check` until it returns true (a liveness bound, not a performance claim). */
async function eventually(what: string, check: () => Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`timed out waiting for: ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** The leader's name, waiting for one to exist. */
async function leader(): Promise<string> {
  let name: string | null = null;
  await eventually('a leader', async () => (name = await fixture.leader()) !== null);
  assert.ok(name !== null);
  return name;
}

/** orch_controllers_running{controller="namespace"} of each running replica, by name. */
async function namespaceControllerGauges(): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const [i, replica] of fixture.cluster.replicas.entries()) {
    if (replica.process === null) continue;
    const res = await fixture.clients[i]?.call('GET', '/metrics');
    out.set(replica.spec.name, /^orch_controllers_running\{controller="namespace"\} (\d)/m.exec(res?.text ?? '')?.[1] ?? 'missing');
  }
  return out;
}

/** Whether the controller runs on `leaderName` and on no other live replica. */
async function runsOnLeaderOnly(leaderName: string): Promise<boolean> {
  const gauges = await namespaceControllerGauges();
  return [...gauges].every(([name, value]) => value === (name === leaderName ? '1' : '0'));
}

interface Obj {
  metadata: { deletionTimestamp?: string; finalizers?: string[] };
  spec?: { finalizers?: string[] };
  status?: { phase?: string; conditions?: { type: string; status: string }[] };
}

async function getJson(context: string, args: string[]): Promise<Obj | undefined> {
  const out = await kubectl(context, ['get', ...args, '-o', 'json', '--ignore-not-found']);
  return out.trim() === '' ? undefined : (JSON.parse(out) as Obj);
}

test('the namespace controller runs on the leader only', { timeout: 120_000 }, async () => {
  const lead = await leader();
  await eventually(`orch_controllers_running 1 on ${lead} and 0 elsewhere`, () => runsOnLeaderOnly(lead));
});

test('kubectl delete namespace removes the namespace and everything in it', { timeout: 180_000 }, async () => {
  const ctx = fixture.cluster.replicas[1]?.spec.name ?? 'orch-2';
  await kubectl(ctx, ['create', 'namespace', 'plain']);
  const ns = await getJson(ctx, ['namespace', 'plain']);
  assert.deepEqual(ns?.spec?.finalizers, ['kubernetes']);
  await kubectl(ctx, ['create', 'configmap', 'settings', '-n', 'plain', '--from-literal=a=b']);
  await kubectl(ctx, ['create', 'secret', 'generic', 'token', '-n', 'plain', '--from-literal=t=x']);
  await kubectl(ctx, ['create', 'serviceaccount', 'robot', '-n', 'plain']);
  await kubectl(ctx, ['create', 'configmap', 'bystander', '-n', 'default', '--from-literal=a=b']);
  assert.match(await kubectl(ctx, ['delete', 'namespace', 'plain', '--timeout=90s']), /namespace "plain" deleted/);
  assert.equal(await getJson(ctx, ['namespace', 'plain']), undefined);
  for (const kind of ['configmaps', 'secrets', 'serviceaccounts']) {
    assert.equal((await kubectl(ctx, ['get', kind, '-n', 'plain', '-o', 'name'])).trim(), '', `no ${kind} left`);
  }
  assert.ok(await getJson(ctx, ['configmap', 'bystander', '-n', 'default']), 'other namespaces keep their objects');
});

test('a finalizer keeps the namespace Terminating across a leader SIGKILL; removing it lets the new leader finish', { timeout: 240_000 }, async () => {
  const first = fixture.cluster.replicas[0]?.spec.name ?? 'orch-1';
  await kubectl(first, ['create', 'namespace', 'held']);
  const pinned = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'pinned', namespace: 'held', finalizers: ['example.com/hold'] }, data: { a: 'b' } };
  await kubectl(first, ['apply', '-f', '-'], JSON.stringify(pinned));
  await kubectl(first, ['create', 'configmap', 'loose', '-n', 'held', '--from-literal=a=b']);
  await kubectl(first, ['delete', 'namespace', 'held', '--wait=false']);

  await eventually('the namespace reports the remaining finalizer', async () => {
    const ns = await getJson(first, ['namespace', 'held']);
    return ns?.status?.phase === 'Terminating' && ns.status.conditions?.some((c) => c.type === 'NamespaceFinalizersRemaining' && c.status === 'True') === true;
  });
  assert.equal(await getJson(first, ['configmap', 'loose', '-n', 'held']), undefined, 'objects without finalizers are gone');
  const held = await getJson(first, ['configmap', 'pinned', '-n', 'held']);
  assert.notEqual(held?.metadata.deletionTimestamp, undefined, 'the object with a finalizer is terminating');
  await assert.rejects(kubectl(first, ['create', 'configmap', 'late', '-n', 'held']), /forbidden|being terminated/i);

  const oldLeader = await leader();
  fixture.cluster.signal(oldLeader, 'SIGKILL');
  const survivor = fixture.cluster.replicas.find((r) => r.spec.name !== oldLeader)?.spec.name ?? '';
  const newLeader = await leader();
  assert.notEqual(newLeader, oldLeader);
  await eventually(`the controller moved to ${newLeader}`, () => runsOnLeaderOnly(newLeader));
  assert.equal((await getJson(survivor, ['namespace', 'held']))?.status?.phase, 'Terminating', 'still held by the finalizer');

  await kubectl(survivor, ['patch', 'configmap', 'pinned', '-n', 'held', '--type=merge', '-p', '{"metadata":{"finalizers":null}}']);
  await eventually('the namespace is removed by the new leader', async () => (await getJson(survivor, ['namespace', 'held'])) === undefined);
  assert.equal(await getJson(survivor, ['configmap', 'pinned', '-n', 'held']), undefined);
});
