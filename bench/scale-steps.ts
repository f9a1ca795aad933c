// The measurements of one point of the scale curve, each against a running 3-replica orch holding
// `count` ConfigMaps: a LIST with the serving replica's peak RSS, watches of the collection (stalled
// ones' memory, one's initial events), the data on disk, a snapshot download, a follower's
// restart, its catch-up after writes it missed, and a new member's install of the leader's Raft
// snapshot.
import { join } from 'node:path';
import { killPid, onCleanup } from './cleanup.ts';
import { createObjects as createObjectsOver } from './create-phases.ts';
import { runClosedLoop, type LoadResult } from './load.ts';
import { configMap, OrchClient } from './orch-client.ts';
import type { OrchTarget } from './orch-target.ts';
import { peakGrowthOver } from './proc-stats.ts';
import { awaitApplied, pollUntil, statusOf, type ReplicaStatusView } from './replica-status.ts';
import { directoryBytes, holdWatches, streamedGet, type HeldWatches } from './scale-probes.ts';
import { percentile } from './stats.ts';
import { probeReady } from '../internal/cluster/wait-ready.ts';
import { stopReplica, type LocalReplica } from '../internal/cluster/local-cluster.ts';
import { freePorts } from '../test/support/free-ports.ts';
import { joiningSpec, startExtraReplica } from '../test/support/joining-replica.ts';

/** Grace a stopped replica gets (SIGTERM) before SIGKILL. */
const stopGraceMs = 10_000;
/** The ConfigMaps in the listed namespace are named `s-<n>`: the marker `"name":"s-` counts a LIST's items. */
const objectPrefix = 's';

/** The cluster under measurement and the bounds every step keeps. */
export interface ScaleContext {
  readonly target: OrchTarget;
  readonly count: number;
  readonly namespace: string;
  readonly concurrency: number;
  readonly valueBytes: number;
  readonly requestTimeoutMs: number;
  /** performance.now() after which every wait gives up. */
  readonly deadline: number;
  /** Updates made so far (they cycle through the objects, each round with new data). */
  updates: number;
}

/** The running replicas with their clients. */
function running(ctx: ScaleContext): { replica: LocalReplica; client: OrchClient }[] {
  return ctx.target.cluster.replicas.flatMap((replica, i) => {
    const client = ctx.target.clients[i];
    return replica.process === null || client === undefined ? [] : [{ replica, client }];
  });
}

/** The leader's name and status (asked of every running replica until one says it leads). */
async function leaderStatus(ctx: ScaleContext): Promise<ReplicaStatusView> {
  return pollUntil('a leader', ctx.deadline, async () => {
    const answers = await Promise.all(running(ctx).map(({ client }) => statusOf(client).catch(() => null)));
    return answers.find((s) => s?.role === 'leader') ?? null;
  });
}

/** A running replica that does not lead now, with its client. */
async function follower(ctx: ScaleContext): Promise<{ replica: LocalReplica; client: OrchClient }> {
  const leader = await leaderStatus(ctx);
  const found = running(ctx).find(({ replica }) => replica.spec.name !== leader.name);
  if (found === undefined) throw new Error('no running follower');
  return found;
}

/** `count` ConfigMaps `s-<n>` of `valueBytes` in the context's namespace, spread over the replicas. */
export function createObjects(ctx: ScaleContext): Promise<LoadResult> {
  return createObjectsOver(ctx.target.clients, `/api/v1/namespaces/${ctx.namespace}/configmaps`, (name) => configMap(name, ctx.valueBytes), objectPrefix, ctx.count, {
    concurrency: ctx.concurrency, phaseMsMax: ctx.deadline - performance.now(),
  });
}

/** Letters of successive update rounds ('x' is the creates' fill, so round 0 already changes the data). */
const roundFills = 'abcdefghijklmnopqrstuvw';

/**
 * `writes` updates (PUT without a resourceVersion, new data each round) cycling through the
 * objects, through `clients`; the collection keeps its size, only its versions change.
 */
async function updateObjects(ctx: ScaleContext, clients: readonly OrchClient[], writes: number): Promise<LoadResult> {
  const path = `/api/v1/namespaces/${ctx.namespace}/configmaps`;
  const offset = ctx.updates;
  ctx.updates += writes;
  const result = await runClosedLoop({ concurrency: ctx.concurrency, durationMs: ctx.deadline - performance.now(), opsMax: writes, op: async (seq) => {
    const n = offset + seq;
    const name = `${objectPrefix}-${n % ctx.count}`;
    const fill = roundFills[Math.floor(n / ctx.count) % roundFills.length] ?? 'a';
    await clients[seq % clients.length]!.call('PUT', `${path}/${name}`, configMap(name, ctx.valueBytes, undefined, fill), [200]);
  } });
  if (result.ops + result.errors < writes) throw new Error(`only ${result.ops + result.errors} of ${writes} updates ran within the time budget`);
  return result;
}

/** One replica's answer to a LIST of the whole collection. */
export interface ListSample {
  readonly replica: string;
  readonly role: string;
  readonly ms: number;
  readonly bytes: number;
  readonly items: number;
  /** VmRSS right before the request (after the peak was reset to it), and VmHWM right after. */
  readonly rssBeforeBytes: number | null;
  readonly peakBytes: number | null;
  /** peak - rss before: what answering the LIST took at most, beyond what the process held. */
  readonly growthBytes: number | null;
  readonly peakReset: boolean;
}

/** One unpaginated JSON LIST of the collection from each replica in turn, each with its own peak RSS. */
export async function measureLists(ctx: ScaleContext): Promise<ListSample[]> {
  const leader = (await leaderStatus(ctx)).name;
  const samples: ListSample[] = [];
  for (const { replica } of running(ctx)) {
    const pid = replica.process?.pid;
    if (pid === undefined) continue;
    const { value: answer, growth } = await peakGrowthOver(pid, () => streamedGet(replica.apiUrl, ctx.target.cluster.caPem, ctx.target.cluster.adminToken, `/api/v1/namespaces/${ctx.namespace}/configmaps`, {
      timeoutMs: Math.max(ctx.requestTimeoutMs, 120_000), marker: `"name":"${objectPrefix}-`,
    }));
    if (answer.status !== 200) throw new Error(`LIST on ${replica.spec.name}: status ${answer.status}`);
    samples.push({ replica: replica.spec.name, role: replica.spec.name === leader ? 'leader' : 'follower', ms: answer.ms, bytes: answer.bytes, items: answer.markers, ...growth });
  }
  return samples;
}

/** The LIST samples summarized: p50 time, the response's size, and the largest growth against it. */
export interface ListSummary {
  readonly p50Ms: number;
  readonly bytes: number;
  readonly items: number;
  readonly growthBytesMax: number | null;
  /** growthBytesMax / bytes: the acceptance is <= 3 at 100,000 objects. */
  readonly growthRatio: number | null;
}

export function summarizeLists(samples: readonly ListSample[]): ListSummary {
  const bytes = Math.max(0, ...samples.map((s) => s.bytes));
  const growths = samples.flatMap((s) => (s.growthBytes === null ? [] : [s.growthBytes]));
  const growthBytesMax = growths.length === 0 ? null : Math.max(...growths);
  return {
    p50Ms: percentile(samples.map((s) => s.ms), 50),
    bytes,
    items: Math.min(...samples.map((s) => s.items)),
    growthBytesMax,
    growthRatio: growthBytesMax === null || bytes === 0 ? null : growthBytesMax / bytes,
  };
}

/** Watches of the whole collection on one follower: one read to its end, then stalled ones' memory. */
export interface WatchersResult {
  readonly replica: string;
  /** One watch read as fast as it comes, alone: from the request to the event of its `count`th object. */
  readonly initialEventsMs: number;
  /** Watches opened at once (no resourceVersion: each begins with the collection as ADDED events), none read. */
  readonly watchers: number;
  /** How long they were held unread (less than asked when the time budget ran short). */
  readonly heldMs: number;
  /** VmRSS before they were opened (after the peak was reset to it), and VmHWM after holding them. */
  readonly rssBeforeBytes: number | null;
  readonly peakBytes: number | null;
  /** (peak - rss before) / watchers: what one stalled watcher of the collection held at most. */
  readonly growthBytesPerWatcher: number | null;
  readonly peakReset: boolean;
}

/**
 * On a follower: times one watch's initial events, read to the last object; then opens `watchers`
 * watches of the collection and reads none of them for `holdMs`, as stalled clients would: what
 * the replica holds for each is then what it keeps of their initial events (a page at a time, so
 * it should not grow with the collection). At a small count much of each stream fits in the
 * loopback connections' buffers: those watchers are less stalled than at a large one.
 */
export async function measureWatchers(ctx: ScaleContext, watchers: number, holdMs: number): Promise<WatchersResult> {
  const { replica } = await follower(ctx);
  const pid = replica.process?.pid;
  if (pid === undefined) throw new Error(`${replica.spec.name} has no process`);
  const { caPem, adminToken } = ctx.target.cluster;
  const path = `/api/v1/namespaces/${ctx.namespace}/configmaps?watch=1`;
  // The namespace holds the root CA publisher's ConfigMap too: count the benchmark's objects by name.
  const one = await streamedGet(replica.apiUrl, caPem, adminToken, path, { marker: `"name":"${objectPrefix}-`, stopAtMarkers: ctx.count, timeoutMs: ctx.deadline - performance.now() });
  if (one.status !== 200) throw new Error(`watch on ${replica.spec.name}: status ${one.status}`);
  if (one.markers < ctx.count) throw new Error(`watch on ${replica.spec.name} ended after ${one.markers} of ${ctx.count} objects`);
  const held: HeldWatches[] = [];
  const heldMs = Math.max(0, Math.min(holdMs, ctx.deadline - performance.now()));
  try {
    const { growth } = await peakGrowthOver(pid, async () => {
      held.push(await holdWatches(replica.apiUrl, caPem, adminToken, path, watchers, ctx.requestTimeoutMs));
      // Until each watch's connection has pushed back and the replica holds what it will hold.
      await new Promise((resolve) => setTimeout(resolve, heldMs));
    });
    const { peakReset, rssBeforeBytes, peakBytes, growthBytes } = growth;
    return {
      replica: replica.spec.name, initialEventsMs: one.ms, watchers, heldMs, rssBeforeBytes, peakBytes, peakReset,
      growthBytesPerWatcher: growthBytes === null ? null : growthBytes / watchers,
    };
  } finally {
    for (const h of held) h.close();
  }
}

/** One replica's data directory on disk: the store (`state/`) and the Raft log with its snapshots (`raft/`). */
export interface DiskUsage {
  readonly replica: string;
  readonly stateBytes: number;
  readonly raftBytes: number;
}

/** Each running replica's bytes on disk (apparent sizes, SQLite's -wal files included). */
export function measureDisk(ctx: ScaleContext): DiskUsage[] {
  return running(ctx).map(({ replica }) => ({
    replica: replica.spec.name,
    stateBytes: directoryBytes(join(replica.spec.dataDir, 'state')),
    raftBytes: directoryBytes(join(replica.spec.dataDir, 'raft')),
  }));
}

/** A snapshot download (GET /orch/v1/snapshot, what `orchctl snapshot save` does) from a follower. */
export interface SnapshotSave {
  readonly replica: string;
  /** From the request to the last byte: the replica's consistent copy, then the transfer. */
  readonly ms: number;
  readonly bytes: number;
}

export async function measureSnapshotSave(ctx: ScaleContext): Promise<SnapshotSave> {
  const { replica } = await follower(ctx);
  const name = replica.spec.name;
  const answer = await streamedGet(replica.apiUrl, ctx.target.cluster.caPem, ctx.target.cluster.adminToken, '/orch/v1/snapshot', {
    timeoutMs: Math.max(ctx.requestTimeoutMs, 120_000), accept: 'application/octet-stream',
  });
  if (answer.status !== 200) throw new Error(`snapshot from ${name}: status ${answer.status}`);
  return { replica: name, ms: answer.ms, bytes: answer.bytes };
}

/** A follower stopped and started again on its data directory. */
export interface RestartResult {
  readonly replica: string;
  /** From the new process's start to its first /readyz 200. */
  readonly msToReady: number;
}

export async function measureRestart(ctx: ScaleContext): Promise<RestartResult> {
  const { replica } = await follower(ctx);
  const name = replica.spec.name;
  await stopReplica(replica, stopGraceMs);
  const t0 = performance.now();
  ctx.target.cluster.restart(name);
  await pollUntil(`${name} ready after its restart`, ctx.deadline, async () => (await probeReady(replica.apiUrl, ctx.target.cluster.caPem, 1_000)) ? true : null);
  return { replica: name, msToReady: performance.now() - t0 };
}

/** A follower down while the others took `writes` writes, then started again. */
export interface CatchUpResult {
  readonly replica: string;
  readonly writes: LoadResult;
  /** The leader's applied index when the follower started again, minus the follower's before it stopped. */
  readonly entriesBehind: number;
  /** From the new process's start to its applied index reaching the leader's at that start. */
  readonly msToCaughtUp: number;
  /** Whether the follower's own snapshot index moved (it had to install the leader's snapshot). */
  readonly installedSnapshot: boolean;
}

export async function measureCatchUp(ctx: ScaleContext, writes: number): Promise<CatchUpResult> {
  const { replica, client } = await follower(ctx);
  const name = replica.spec.name;
  // A replica restarted by the step before: its client's first call may meet a closed pooled connection.
  const before = await pollUntil(`${name}'s status`, ctx.deadline, () => statusOf(client));
  await stopReplica(replica, stopGraceMs);
  const others = running(ctx).map((r) => r.client);
  const load = await updateObjects(ctx, others, writes);
  const leader = await leaderStatus(ctx);
  const t0 = performance.now();
  ctx.target.cluster.restart(name);
  const caughtUp = await awaitApplied(client, leader.appliedIndex, ctx.deadline, `${name} caught up`);
  return { replica: name, writes: load, entriesBehind: leader.appliedIndex - before.appliedIndex, msToCaughtUp: performance.now() - t0, installedSnapshot: caughtUp.snapshotIndex !== before.snapshotIndex };
}

/** A new member (--join, empty data directory) that received the leader's Raft snapshot. */
export interface InstallResult {
  /** Updates made to bring the leader to its snapshot interval (--snapshot-every-entries). */
  readonly triggerWrites: number;
  readonly leaderSnapshotIndex: number;
  readonly leaderFirstIndex: number;
  /** The leader's applied index when the member was started. */
  readonly leaderAppliedIndex: number;
  /** From the new process's start to its applied index reaching the leader's at that start. */
  readonly msToApplied: number;
  /** The member's snapshot index once caught up: non-zero when it installed the leader's snapshot. */
  readonly memberSnapshotIndex: number;
}

/**
 * Writes until the leader passes `snapshotEveryEntries` and has taken its snapshot (the log behind
 * it compacted), then starts a 4th member with --join on an empty data directory and times it
 * until it has applied what the leader had: it cannot get the compacted entries, so it installs
 * the snapshot, then appends the rest. The member is killed by pid afterwards.
 */
export async function measureInstall(ctx: ScaleContext, snapshotEveryEntries: number): Promise<InstallResult> {
  let triggerWrites = 0;
  // Until the leader has applied past the interval (a few entries more than it lacks: a write that
  // failed adds none), unless it has a snapshot already.
  for (let status = await leaderStatus(ctx); status.snapshotIndex === 0 && status.appliedIndex < snapshotEveryEntries; status = await leaderStatus(ctx)) {
    const writes = snapshotEveryEntries - status.appliedIndex + 20;
    await updateObjects(ctx, ctx.target.clients, writes);
    triggerWrites += writes;
  }
  const leader = await pollUntil('the leader\'s Raft snapshot', ctx.deadline, async () => {
    const status = await leaderStatus(ctx);
    return status.snapshotIndex > 0 && status.firstIndex > 1 ? status : null;
  });
  const [apiPort, peerPort] = await freePorts(2);
  if (apiPort === undefined || peerPort === undefined) throw new Error('assert: two free ports');
  const spec = joiningSpec(ctx.target.cluster, { name: 'orch-join', apiPort, peerPort, join: ctx.target.cluster.replicas.map((r) => r.spec.peerAddress) });
  const t0 = performance.now();
  const member = startExtraReplica(spec, 'ignore');
  const removeCleanup = onCleanup(() => killPid(member.process.pid));
  const client = new OrchClient(member.apiUrl, ctx.target.cluster.caPem, ctx.target.cluster.adminToken, { connections: 1, timeoutMs: 5_000 });
  try {
    const caughtUp = await awaitApplied(client, leader.appliedIndex, ctx.deadline, 'the joining member caught up', () => {
      if (member.hasExited()) throw new Error('the joining member exited');
    });
    return {
      triggerWrites, leaderSnapshotIndex: leader.snapshotIndex, leaderFirstIndex: leader.firstIndex, leaderAppliedIndex: leader.appliedIndex,
      msToApplied: performance.now() - t0, memberSnapshotIndex: caughtUp.snapshotIndex,
    };
  } finally {
    await client.close().catch(() => undefined);
    await member.kill();
    removeCleanup();
  }
}
