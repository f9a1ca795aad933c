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

/** The verdict: violations fail the run; notes (such as an exhausted search budget) do not. */
export interface Verdict {
  readonly violations: readonly string[];
  readonly notes: readonly string[];
  readonly linearizability: 'ok' | 'violation' | 'unknown';
}

/** Runs every check over a run's records. */
export function judge(input: VerdictInput): Verdict {
  const violations: string[] = [];
  const notes: string[] = [];
  const lin = checkLinearizability(input.history, input.stepsMaxPerKey === undefined ? {} : { stepsMaxPerKey: input.stepsMaxPerKey });
  for (const v of lin.violations) violations.push(`linearizability: ${v.explanation ?? v.key}`);
  for (const k of lin.keys) if (k.status === 'unknown') notes.push(`linearizability of key ${k.key} undecided: ${k.explanation ?? ''}`);
  violations.push(...compareReplicas(input.finalLists));
  const reference = [...input.finalLists.values()][0] ?? [];
  const finalState = new Map(reference.map((i) => [i.key, i.resourceVersion]));
  const acknowledged = acknowledgedWrites(input.history);
  const watch = checkWatchGuarantees({ logs: input.watchLogs, acknowledged, finalState });
  for (const v of watch.violations) violations.push(`watch ${v.property}: ${v.message}`);
  violations.push(...lostWrites(input.history, reference));
  return { violations, notes, linearizability: lin.status };
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
    const deleted = history.some((op) => op.key === key && op.type === 'delete' && (op.outcome === 'unknown' || (op.outcome === 'ok' && op.completeMs >= write.invokeMs)));
    if (!deleted) problems.push(`lost write: ${key} acknowledged at revision ${rv} (${canonicalJson(write.input.value)}) is gone and no delete could explain it`);
  }
  return problems;
}
