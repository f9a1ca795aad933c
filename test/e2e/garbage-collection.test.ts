// Garbage collection on a real 3-replica cluster, driven by kubectl's --cascade flag: background
// collects the dependents after the owner, foreground before it (waiting for blocking ones),
// orphan keeps them and strips the reference to the owner.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startClusterFixture, type ClusterFixture } from '../support/cluster-fixture.ts';
import { kubectlPath, kubectlTarget } from '../support/kubectl-runner.ts';

const run = promisify(execFile);

interface Meta {
  uid: string;
  deletionTimestamp?: string;
  finalizers?: string[];
  ownerReferences?: { uid: string }[];
}

/** Runs kubectl through the next replica in turn; returns stdout, or throws with stderr. */
function kubectlRotating(fixture: ClusterFixture): (args: string[]) => Promise<string> {
  let turn = 0;
  return async (args) => {
    const context = fixture.cluster.replicas[turn++ % fixture.cluster.replicas.length]?.spec.name ?? 'orch-1';
    try {
      const { stdout } = await run(kubectlPath, [...kubectlTarget(fixture.cluster.kubeconfigPath, context), ...args], { timeout: 60_000 });
      return stdout;
    } catch (error) {
      const e = error as { stderr?: string; message: string };
      throw new Error(`kubectl --context ${context} ${args.join(' ')} failed: ${e.stderr ?? e.message}`);
    }
  };
}

/** The configmap's metadata as one replica serves it (consistent read), or undefined when absent. */
async function metaOf(fixture: ClusterFixture, name: string, replica = 0): Promise<Meta | undefined> {
  const client = fixture.clients[replica % fixture.clients.length];
  assert.ok(client);
  const res = await client.call('GET', `/api/v1/namespaces/default/configmaps/${name}`);
  if (res.status === 404) return undefined;
  assert.equal(res.status, 200, res.text);
  return (JSON.parse(res.text) as { metadata: Meta }).metadata;
}

async function eventually(what: string, check: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for: ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

test('kubectl delete --cascade=background|foreground|orphan: the collector handles the dependents', { timeout: 600_000 }, async (t) => {
  const fixture = await startClusterFixture();
  t.after(() => fixture.close());
  const kubectl = kubectlRotating(fixture);

  /** Creates owner `name` and dependents `<name>-dep-<i>` (the first held by a finalizer when `hold`). */
  async function family(name: string, count: number, hold = false): Promise<string> {
    await kubectl(['create', 'configmap', name, '--from-literal=role=owner']);
    const uid = await kubectl(['get', 'configmap', name, '-o', 'jsonpath={.metadata.uid}']);
    const items = Array.from({ length: count }, (_, i) => ({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: {
        name: `${name}-dep-${i}`,
        ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name, uid, blockOwnerDeletion: true }],
        ...(hold && i === 0 ? { finalizers: ['example.com/hold'] } : {}),
      },
      data: { role: 'dependent' },
    }));
    const file = join(fixture.dataDir, `${name}.json`);
    writeFileSync(file, JSON.stringify({ apiVersion: 'v1', kind: 'List', items }));
    await kubectl(['create', '-f', file]);
    return uid;
  }
  const deps = (name: string, count: number) => Array.from({ length: count }, (_, i) => `${name}-dep-${i}`);

  await t.test('background: the owner goes at once, the dependents after it', async () => {
    await family('bg', 3);
    assert.match(await kubectl(['delete', 'configmap', 'bg', '--cascade=background']), /deleted/);
    assert.equal(await metaOf(fixture, 'bg'), undefined);
    for (const [i, dep] of deps('bg', 3).entries()) await eventually(`${dep} collected`, async () => (await metaOf(fixture, dep, i)) === undefined);
  });

  await t.test('foreground: the owner waits, terminating, until its blocking dependents are gone', async () => {
    await family('fg', 3, true);
    await kubectl(['delete', 'configmap', 'fg', '--cascade=foreground', '--wait=false']);
    await eventually('unheld dependents collected', async () => (await metaOf(fixture, 'fg-dep-1', 1)) === undefined && (await metaOf(fixture, 'fg-dep-2', 2)) === undefined);
    const held = await metaOf(fixture, 'fg-dep-0');
    assert.ok(held?.deletionTimestamp, 'the held dependent is terminating');
    const owner = await metaOf(fixture, 'fg', 1);
    assert.ok(owner?.deletionTimestamp, 'the owner is terminating');
    assert.deepEqual(owner.finalizers, ['foregroundDeletion'], 'and waits for the held dependent');
    await kubectl(['patch', 'configmap', 'fg-dep-0', '--type=merge', '-p', '{"metadata":{"finalizers":null}}']);
    await eventually('owner removed after its last dependent', async () => (await metaOf(fixture, 'fg', 2)) === undefined);
    assert.equal(await metaOf(fixture, 'fg-dep-0'), undefined);
  });

  await t.test('foreground with kubectl waiting: when delete returns, the dependents are gone already', async () => {
    await family('fgw', 2);
    assert.match(await kubectl(['delete', 'configmap', 'fgw', '--cascade=foreground']), /deleted/);
    for (const [i, dep] of deps('fgw', 2).entries()) assert.equal(await metaOf(fixture, dep, i), undefined, `${dep} went before its owner`);
  });

  await t.test('orphan: the dependents stay, without the reference to the deleted owner', async () => {
    const uid = await family('or', 3);
    assert.match(await kubectl(['delete', 'configmap', 'or', '--cascade=orphan']), /deleted/);
    assert.equal(await metaOf(fixture, 'or'), undefined);
    for (const [i, dep] of deps('or', 3).entries()) {
      const meta = await metaOf(fixture, dep, i);
      assert.ok(meta, `${dep} stays`);
      assert.ok(!(meta.ownerReferences ?? []).some((r) => r.uid === uid), `${dep} no longer names the owner`);
    }
    await new Promise((r) => setTimeout(r, 1000));
    for (const dep of deps('or', 3)) assert.ok(await metaOf(fixture, dep), `${dep} is not collected afterwards`);
  });
});
