// A synthetic chaos run of any length for the checkers: client processes issuing the workload's
// operations against a model store that applies each at a random point of its interval, so the
// history is linearizable by construction, with the watch logs and final lists that store yields.
// Writes of unknown outcome (applied or not, at random) and watch streams that break and resume
// are included, as in a real run.
import { Rng } from '../../sim/rng.ts';
import type { LoggedWatchEvent, Operation, OpType, VersionedValue, WatchLog, WatchSegment } from '../../chaos/checkers/history.ts';

/** Shape of the synthetic run. */
export interface SyntheticRunOptions {
  readonly operations: number;
  readonly processes: number;
  readonly keys: number;
  readonly seed: number;
  /** One write in this many has an unknown outcome (0: none). */
  readonly unknownEvery?: number;
  /** Events per watch stream before it breaks and resumes. */
  readonly eventsPerStream?: number;
}

/** What a chaos run hands to `judge`. */
export interface SyntheticRun {
  readonly history: Operation[];
  readonly watchLogs: WatchLog[];
  readonly finalLists: Map<string, VersionedValue[]>;
}

interface Slot {
  readonly process: number;
  readonly invokeMs: number;
  readonly completeMs: number;
  readonly applyMs: number;
}

/** Builds a linearizable run of exactly `options.operations` operations. */
export function syntheticRun(options: SyntheticRunOptions): SyntheticRun {
  const rng = new Rng(options.seed);
  const slots = intervals(options, rng.derive('times'));
  const store = new Map<string, { value: string; resourceVersion: number }>();
  const seen = Array.from({ length: options.processes }, () => new Map<string, number>());
  const events: LoggedWatchEvent[] = [];
  const history: Operation[] = [];
  const choose = rng.derive('ops');
  let revision = 1;
  let writes = 0;
  for (const slot of slots) {
    const process = `p${slot.process}`;
    const known = seen[slot.process] as Map<string, number>;
    const key = `k${String(choose.int(options.keys)).padStart(2, '0')}`;
    const type = chooseType(choose.int(100), known.has(key));
    const times = { process, invokeMs: slot.invokeMs, completeMs: slot.completeMs };
    const current = store.get(key);
    if (type === 'get') {
      history.push({ ...times, type, key, input: {}, outcome: 'ok', output: current === undefined ? { found: false, code: 404 } : { found: true, value: current.value, resourceVersion: current.resourceVersion } });
      if (current === undefined) known.delete(key);
      else known.set(key, current.resourceVersion);
      continue;
    }
    if (type === 'list') {
      const items = [...store].sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, v]) => ({ key: k, value: v.value, resourceVersion: v.resourceVersion }));
      history.push({ ...times, type, key: 'k', input: {}, outcome: 'ok', output: { items } });
      for (const item of items) known.set(item.key, item.resourceVersion);
      continue;
    }
    writes += 1;
    const value = `${process}-${history.length}`;
    const expected = known.get(key);
    const input = type === 'create' ? { value } : type === 'cas-update' ? { value, expectedResourceVersion: expected as number } : { expectedResourceVersion: expected as number };
    const unknown = options.unknownEvery !== undefined && options.unknownEvery > 0 && writes % options.unknownEvery === 0;
    const refusal = type === 'create' ? (current === undefined ? undefined : 409) : current === undefined ? 404 : current.resourceVersion !== expected ? 409 : undefined;
    if (refusal !== undefined) {
      history.push({ ...times, type, key, input, outcome: unknown ? 'unknown' : 'fail', ...(unknown ? {} : { output: { code: refusal } }) });
      continue;
    }
    if (unknown && choose.chance(0.5)) {
      // Lost on the way: never applied.
      history.push({ ...times, type, key, input, outcome: 'unknown' });
      continue;
    }
    revision += 1;
    if (type === 'delete') {
      store.delete(key);
      events.push({ type: 'DELETED', key, resourceVersion: revision, value: current?.value });
    } else {
      store.set(key, { value, resourceVersion: revision });
      events.push({ type: type === 'create' ? 'ADDED' : 'MODIFIED', key, resourceVersion: revision, value });
    }
    if (unknown) {
      history.push({ ...times, type, key, input, outcome: 'unknown' });
    } else {
      history.push({ ...times, type, key, input, outcome: 'ok', ...(type === 'delete' ? {} : { output: { resourceVersion: revision } }) });
      if (type === 'delete') known.delete(key);
      else known.set(key, revision);
    }
  }
  const final = [...store].map(([key, v]) => ({ key, value: v.value, resourceVersion: v.resourceVersion }));
  const replicas = new Map(['orch-1', 'orch-2', 'orch-3'].map((r) => [r, final.map((i) => ({ ...i }))]));
  const perStream = options.eventsPerStream ?? 5_000;
  return { history, watchLogs: ['watch-orch-1', 'watch-roaming'].map((w, i) => watchLog(w, events, perStream + i * 7)), finalLists: replicas };
}

/** Sequential operations per process (one in flight each), in the order their effects apply. */
function intervals(options: SyntheticRunOptions, rng: Rng): Slot[] {
  const perProcess = Math.ceil(options.operations / options.processes);
  const slots: Slot[] = [];
  for (let p = 0; p < options.processes && slots.length < options.operations; p += 1) {
    let now = rng.int(10);
    for (let i = 0; i < perProcess && slots.length < options.operations; i += 1) {
      const invokeMs = now;
      const completeMs = invokeMs + 1 + rng.int(12);
      slots.push({ process: p, invokeMs, completeMs, applyMs: invokeMs + rng.int(completeMs - invokeMs + 1) });
      now = completeMs + rng.int(4);
    }
  }
  // Ties keep each process's own order (its later operation cannot apply before its earlier one).
  return slots.sort((a, b) => a.applyMs - b.applyMs || a.invokeMs - b.invokeMs);
}

function chooseType(roll: number, haveVersion: boolean): OpType {
  if (roll < 25) return 'get';
  if (roll < 35) return 'list';
  if (roll < 55) return 'create';
  if (!haveVersion) return 'get';
  return roll < 85 ? 'cas-update' : 'delete';
}

/** A watcher that sees every event, its stream breaking every `perStream` events and resuming where it got, with a bookmark at each break. */
function watchLog(watcher: string, events: readonly LoggedWatchEvent[], perStream: number): WatchLog {
  const segments: WatchSegment[] = [];
  let from = 1;
  for (let start = 0; start < events.length; start += perStream) {
    const part = events.slice(start, start + perStream);
    const last = (part.at(-1) as LoggedWatchEvent).resourceVersion;
    segments.push({ replica: `orch-${(segments.length % 3) + 1}`, fromResourceVersion: from, events: [...part, { type: 'BOOKMARK', key: '', resourceVersion: last }] });
    from = last;
  }
  return { watcher, segments };
}
