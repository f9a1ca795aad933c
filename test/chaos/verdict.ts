// Judges a finished chaos run: linearizability per key, etcd's watch guarantees, no acknowledged
// write lost, and every replica holding the same objects at the same revisions. Pure.
import { acknowledgedWrites, canonicalJson, type Operation, type VersionedValue, type WatchLog } from './checkers/history.ts';
import { checkLinearizability } from './checkers/linearizability.ts';
import { checkWatchGuarantees } from './checkers/watch-guarantees.ts';

/** What the checks are given. */
export interface VerdictInput {
  readonly history: readonly Operation[];
  readonly watchLogs: readonly WatchLog[];
  /** Each replica's final consistent list of the workload's objects. */
  readonly finalLists: ReadonlyMap<string, readonly VersionedValue[]>;
  readonly stepsMaxPerKey?: number;
}

/** What one checker concluded, what it looked at and how long it took. */
export interface CheckerVerdict {
  readonly checker: 'linearizability' | 'watch guarantees' | 'replica agreement' | 'acknowledged writes kept';
  readonly status: 'ok' | 'violation' | 'unknown';
  readonly violations: number;
  /** What was checked, for the summary (e.g. "30 keys, 1,204,311 operations"). */
  readonly scope: string;
  readonly elapsedMs: number;
}

/** The verdict: violations fail the run; notes (such as an exhausted search budget) do not. */
export interface Verdict {
  readonly violations: readonly string[];
  readonly notes: readonly string[];
  readonly linearizability: 'ok' | 'violation' | 'unknown';
  readonly checkers: readonly CheckerVerdict[];
}

/** Runs every check over a run's records. */
export function judge(input: VerdictInput): Verdict {
  const violations: string[] = [];
  const notes: string[] = [];
  const checkers: CheckerVerdict[] = [];
  const timed = <T>(run: () => T): [T, number] => {
    const started = performance.now();
    const result = run();
    return [result, Math.round(performance.now() - started)];
  };
  const verdictOf = (checker: CheckerVerdict['checker'], found: readonly string[], scope: string, elapsedMs: number): void => {
    for (const v of found) violations.push(v);
    checkers.push({ checker, status: found.length > 0 ? 'violation' : 'ok', violations: found.length, scope, elapsedMs });
  };

  const [lin, linMs] = timed(() => checkLinearizability(input.history, input.stepsMaxPerKey === undefined ? {} : { stepsMaxPerKey: input.stepsMaxPerKey }));
  for (const v of lin.violations) violations.push(`linearizability: ${v.explanation ?? v.key}`);
  for (const k of lin.keys) if (k.status === 'unknown') notes.push(`linearizability of key ${k.key} undecided: ${k.explanation ?? ''}`);
  const keyOperations = lin.keys.reduce((n, k) => n + k.operations, 0);
  const steps = lin.keys.reduce((n, k) => n + k.steps, 0);
  checkers.push({ checker: 'linearizability', status: lin.status, violations: lin.violations.length, scope: `${lin.keys.length} keys, ${keyOperations} key operations, ${steps} search steps`, elapsedMs: linMs });

  const [replicas, replicasMs] = timed(() => compareReplicas(input.finalLists));
  verdictOf('replica agreement', replicas, `${input.finalLists.size} replicas`, replicasMs);

  const reference = [...input.finalLists.values()][0] ?? [];
  const finalState = new Map(reference.map((i) => [i.key, i.resourceVersion]));
  const acknowledged = acknowledgedWrites(input.history);
  const [watch, watchMs] = timed(() => checkWatchGuarantees({ logs: input.watchLogs, acknowledged, finalState }));
  const events = input.watchLogs.reduce((n, l) => n + l.segments.reduce((m, s) => m + s.events.length, 0), 0);
  const streams = input.watchLogs.reduce((n, l) => n + l.segments.length, 0);
  verdictOf('watch guarantees', watch.violations.map((v) => `watch ${v.property}: ${v.message}`), `${input.watchLogs.length} watchers, ${streams} streams, ${events} events, ${acknowledged.length} acknowledged writes`, watchMs);

  const [lost, lostMs] = timed(() => lostWrites(input.history, reference));
  verdictOf('acknowledged writes kept', lost, `${acknowledged.length} acknowledged writes over ${finalState.size} final objects`, lostMs);
  return { violations, notes, linearizability: lin.status, checkers };
}

/** Every replica must list the same keys with the same revisions and values. */
export function compareReplicas(lists: ReadonlyMap<string, readonly VersionedValue[]>): string[] {
  const texts = [...lists].map(([replica, items]) => [replica, [...items].sort((a, b) => (a.key < b.key ? -1 : 1)).map((i) => `${i.key}@${i.resourceVersion}=${canonicalJson(i.value)}`)] as const);
  const [first, ...rest] = texts;
  if (first === undefined) return ['replicas: no final list was read'];
  const problems: string[] = [];
  for (const [replica, items] of rest) {
    if (items.join('\n') === first[1].join('\n')) continue;
    const a = new Set(first[1]);
    const b = new Set(items);
    problems.push(`replicas disagree: ${first[0]} only has [${[...a].filter((x) => !b.has(x)).slice(0, 5).join(', ')}], ${replica} only has [${[...b].filter((x) => !a.has(x)).slice(0, 5).join(', ')}]`);
  }
  return problems;
}

/**
 * No acknowledged write lost: for each key, the final object is at least as new as the latest
 * acknowledged create or update; an absent key needs a delete that could come after that write
 * (one of unknown outcome, or an acknowledged one that returned after the write was called).
 */
export function lostWrites(history: readonly Operation[], finalItems: readonly VersionedValue[]): string[] {
  const latest = new Map<string, Operation>();
  for (const op of history) {
    if (op.outcome !== 'ok' || (op.type !== 'create' && op.type !== 'cas-update')) continue;
    const rv = op.output?.resourceVersion ?? 0;
    const before = latest.get(op.key);
    if (before === undefined || (before.output?.resourceVersion ?? 0) < rv) latest.set(op.key, op);
  }
  // Per key: whether a delete of unknown outcome exists, and when the last acknowledged one returned.
  const deletes = new Map<string, { unknown: boolean; lastReturnMs: number }>();
  for (const op of history) {
    if (op.type !== 'delete' || op.outcome === 'fail') continue;
    const known = deletes.get(op.key) ?? { unknown: false, lastReturnMs: -Infinity };
    deletes.set(op.key, op.outcome === 'unknown' ? { ...known, unknown: true } : { ...known, lastReturnMs: Math.max(known.lastReturnMs, op.completeMs) });
  }
  const final = new Map(finalItems.map((i) => [i.key, i]));
  const problems: string[] = [];
  for (const [key, write] of latest) {
    const rv = write.output?.resourceVersion ?? 0;
    const item = final.get(key);
    if (item !== undefined) {
      if (item.resourceVersion < rv) problems.push(`lost write: ${key} acknowledged at revision ${rv}, final revision ${item.resourceVersion}`);
      continue;
    }
    // An unknown delete may take effect at any time after its call; an acknowledged one up to its return.
    const deleted = deletes.get(key);
    const explained = deleted !== undefined && (deleted.unknown || deleted.lastReturnMs >= write.invokeMs);
    if (!explained) problems.push(`lost write: ${key} acknowledged at revision ${rv} (${canonicalJson(write.input.value)}) is gone and no delete could explain it`);
  }
  return problems;
}
