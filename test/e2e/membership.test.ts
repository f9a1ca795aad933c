// Issue 27, first acceptance item: a 3-replica cluster under continuous writes gains a 4th replica
// (started with --join), loses an old one (`orchctl member remove`, then its process killed), and
// has a SIGKILLed replica replaced (removed, and a 5th started with --join). Writes flow
// throughout; at the end every live replica holds every acknowledged write, and `orchctl status`
// shows the new membership.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { OrchClient } from '../../internal/client/client.ts';
import { waitReady } from '../../internal/cluster/wait-ready.ts';
import { freePorts } from '../support/free-ports.ts';
import { joiningSpec, startExtraReplica, type ExtraReplica } from '../support/joining-replica.ts';
import { orchctlOk } from '../support/orchctl-runner.ts';
import { replicaReadyTimeoutMs, startLoggedCluster, type LoggedCluster } from '../support/logged-cluster.ts';
import type { ReplicaLogBuffer } from '../support/replica-log-buffer.ts';
import { storedOn } from '../support/replica-objects.ts';
import { StepTimeline } from '../support/step-timeline.ts';
import { WriteLoad } from '../support/write-load.ts';

const label = 'membership';
/** Acknowledged requests between two membership changes: each change happens under load. */
const progressBetweenSteps = 30;

interface MemberRow {
  readonly name: string;
  readonly role: 'voter' | 'learner';
}

/** `orchctl member list -o json` over the kubeconfig's replicas and `endpoints`. */
async function memberList(kubeconfig: string, endpoints: readonly string[]): Promise<{ leader: string | null; members: MemberRow[] }> {
  const out = await orchctlOk(['member', 'list', '-o', 'json', '--endpoints', endpoints.join(',')], { kubeconfig });
  return JSON.parse(out) as { leader: string | null; members: MemberRow[] };
}

/** Polls `orchctl member list` until `name` is a voter (a joiner is promoted once it caught up). */
async function waitUntilVoter(kubeconfig: string, endpoints: readonly string[], replica: ExtraReplica, logs: ReplicaLogBuffer): Promise<void> {
  const name = replica.spec.name;
  const deadline = Date.now() + replicaReadyTimeoutMs;
  let last = '';
  while (Date.now() < deadline) {
    if (replica.hasExited()) throw new Error(`${name} exited while joining:\n${logs.tail(name, 15)}`);
    try {
      const view = await memberList(kubeconfig, endpoints);
      if (view.members.some((m) => m.name === name && m.role === 'voter')) return;
      last = JSON.stringify(view);
    } catch (error) {
      last = String(error);
    }
    await sleep(500);
  }
  throw new Error(`${name} is not a voter after ${replicaReadyTimeoutMs} ms; last member list: ${last}\n${logs.tail(name, 15)}`);
}

function replicaOf(fixture: LoggedCluster, name: string): { apiUrl: string; peerAddress: string; kill(signal: NodeJS.Signals): Promise<void> } {
  const replica = fixture.cluster.replicas.find((r) => r.spec.name === name);
  assert.ok(replica, `no replica ${name}`);
  return {
    apiUrl: replica.apiUrl,
    peerAddress: replica.spec.peerAddress,
    async kill(signal: NodeJS.Signals) {
      const child = replica.process;
      if (child === null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      fixture.cluster.signal(name, signal);
      await exited;
    },
  };
}

test('replicas are added with --join, removed live and dead, and replaced under continuous writes without losing an acknowledged write', { timeout: 400_000 }, async (t) => {
  const fixture = await startLoggedCluster();
  const { cluster, logs } = fixture;
  const kubeconfig = cluster.kubeconfigPath;
  const extra: ExtraReplica[] = [];
  const [api4, peer4, api5, peer5] = await freePorts(4);
  assert.ok(api4 && peer4 && api5 && peer5);
  const url4 = `https://127.0.0.1:${api4}`;
  const url5 = `https://127.0.0.1:${api5}`;
  // The client knows every replica-to-be: those not (yet) running are ejected, and probed back in once ready.
  const client = new OrchClient({ servers: [...cluster.replicas.map((r) => r.apiUrl), url4, url5], caPem: cluster.caPem, token: cluster.adminToken });
  const load = new WriteLoad({ client, writers: 4, label, updatesPerObject: 3 });
  t.after(async () => {
    await load.stop();
    await client.close();
    await Promise.all(extra.map((r) => r.kill()));
    await fixture.close();
  });
  const steps = new StepTimeline();
  await load.waitForProgress(progressBetweenSteps);
  const [one, two, three] = ['orch-1', 'orch-2', 'orch-3'].map((n) => replicaOf(fixture, n));
  assert.ok(one && two && three);

  // Add orch-4: it joins through the founding members' peer addresses and is promoted once caught up.
  steps.begin('join orch-4');
  const orch4 = startExtraReplica(joiningSpec(cluster, { name: 'orch-4', apiPort: api4, peerPort: peer4, join: [one.peerAddress, two.peerAddress, three.peerAddress] }), logs);
  extra.push(orch4);
  await waitUntilVoter(kubeconfig, [url4], orch4, logs);
  await waitReady([url4], cluster.caPem, replicaReadyTimeoutMs);
  await load.waitForProgress(progressBetweenSteps);

  // Remove a live member, then stop its process.
  steps.begin('remove orch-1');
  await orchctlOk(['member', 'remove', 'orch-1', '--endpoints', url4], { kubeconfig });
  await one.kill('SIGTERM');
  await load.waitForProgress(progressBetweenSteps);

  // A member dies; the operator removes it and starts a replacement that joins.
  steps.begin('SIGKILL orch-2');
  await two.kill('SIGKILL');
  steps.begin('remove orch-2');
  await orchctlOk(['member', 'remove', 'orch-2', '--endpoints', url4], { kubeconfig });
  await load.waitForProgress(progressBetweenSteps);
  steps.begin('join orch-5');
  const orch5 = startExtraReplica(joiningSpec(cluster, { name: 'orch-5', apiPort: api5, peerPort: peer5, join: [three.peerAddress, `127.0.0.1:${peer4}`] }), logs);
  extra.push(orch5);
  await waitUntilVoter(kubeconfig, [url4, url5], orch5, logs);
  await waitReady([url5], cluster.caPem, replicaReadyTimeoutMs);
  await load.waitForProgress(progressBetweenSteps);

  steps.begin('check');
  const result = await load.stop();
  const unexpected = result.failures.filter((f) => f.outcome === 'refused');
  const replicaOfPort = new Map([...cluster.replicas.map((r) => [Number(new URL(r.apiUrl).port), r.spec.name] as const), [api4, 'orch-4'], [api5, 'orch-5']]);
  t.diagnostic(`${result.attempted} writes, ${result.acknowledged.size} objects acknowledged, ${result.failures.length} failed; steps: ${steps.durations()}`);
  for (const line of steps.describe(result.failures, replicaOfPort).split('\n')) if (line !== '') t.diagnostic(`failed write: ${line}`);
  assert.deepEqual(unexpected, [], 'no write was refused by the server (only the SIGKILLs may leave outcomes unknown)');

  for (const [name, url] of [['orch-3', three.apiUrl], ['orch-4', url4], ['orch-5', url5]] as const) {
    const { objects } = await storedOn(url, cluster.caPem, cluster.adminToken, label);
    assert.deepEqual(load.problemsIn(objects), [], `${name} holds every acknowledged write with its resourceVersion`);
  }

  const statusJson = JSON.parse(await orchctlOk(['status', '-o', 'json', '--endpoints', `${url4},${url5}`], { kubeconfig })) as {
    replicas: { endpoint: string; reachable: boolean; status?: { name: string; clusterId: string } }[];
    membership: { leader: string | null; members: MemberRow[] } | null;
  };
  assert.deepEqual(statusJson.membership?.members.map((m) => `${m.name}:${m.role}`).sort(), ['orch-3:voter', 'orch-4:voter', 'orch-5:voter']);
  assert.ok(['orch-3', 'orch-4', 'orch-5'].includes(statusJson.membership?.leader ?? ''), 'a live member leads');
  const live = statusJson.replicas.filter((r) => r.reachable).map((r) => r.status?.name).sort();
  assert.deepEqual(live, ['orch-3', 'orch-4', 'orch-5'], 'the removed replicas do not answer, the members do');
  assert.equal(new Set(statusJson.replicas.filter((r) => r.reachable).map((r) => r.status?.clusterId)).size, 1, 'one cluster id');
  const table = await orchctlOk(['status', '--endpoints', `${url4},${url5}`], { kubeconfig });
  for (const name of ['orch-3', 'orch-4', 'orch-5']) assert.match(table, new RegExp(`^${name}\\s+voter`, 'm'), `orchctl status lists ${name} as a voter`);
});
