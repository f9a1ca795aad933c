// Checks etcd's watch guarantees over the watch logs of a chaos run, plus two guarantees of a
// replicated store: every replica tells the same story for a revision, and no acknowledged write
// is lost. Revisions are global (one per write), so a revision names exactly one event.
//
//  ordered       within one watcher, event revisions strictly increase (across resumes too)
//  unique        no event is delivered twice to one watcher
//  atomic        one revision carries one event (two different events with the same revision are split/forged)
//  reliable      within each stream's covered range (its start, its last revision], every known
//                event for a watched key is delivered
//  resumable     a stream resumed from revision X starts with the first known event above X, and
//                X is the last revision (event or bookmark) the watcher had received
//  bookmarkable  bookmarks never go backwards and no later event is at or below a bookmark
//  identical     the same revision means the same key, type and value on every replica and watcher
//  durable       every acknowledged write appears with its revision where any watcher covered it,
//                and the final state is not older than it
import { canonicalJson, type AcknowledgedWrite, type LoggedWatchEvent, type WatchLog, type WatchSegment } from './history.ts';

/** The guarantee a violation breaks. */
export type WatchProperty = 'ordered' | 'unique' | 'atomic' | 'reliable' | 'resumable' | 'bookmarkable' | 'identical' | 'durable';

/** One broken guarantee, with the watcher and revision involved. */
export interface WatchViolation {
  readonly property: WatchProperty;
  readonly watcher?: string;
  readonly resourceVersion?: number;
  readonly message: string;
}

/** Result of the watch checks: ok exactly when there are no violations. */
export interface WatchReport {
  readonly ok: boolean;
  readonly violations: readonly WatchViolation[];
}

/** The final state of the store (e.g. from a consistent list after the run): key -> revision. */
export type FinalState = ReadonlyMap<string, number>;

/** Inputs of the watch checks. */
export interface WatchCheckInput {
  readonly logs: readonly WatchLog[];
  readonly acknowledged?: readonly AcknowledgedWrite[];
  readonly finalState?: FinalState;
}

interface Known {
  readonly key: string;
  readonly type: string;
  readonly value: string | undefined;
  readonly source: string;
}

/** Runs every check; violations are listed in a stable order (by check, then watcher). */
export function checkWatchGuarantees(input: WatchCheckInput): WatchReport {
  const violations: WatchViolation[] = [];
  const reference = buildReference(input, violations);
  for (const log of input.logs) {
    checkOrderAndBookmarks(log, violations);
    checkReliableAndResumable(log, reference, violations);
  }
  checkDurable(input, reference, violations);
  return { ok: violations.length === 0, violations };
}

function signature(e: { key: string; type: string; value?: unknown }): Known {
  // A delete event carries the last state of the object, which an acknowledgement does not know.
  return { key: e.key, type: e.type, value: e.type === 'DELETED' || e.value === undefined ? undefined : canonicalJson(e.value), source: '' };
}

function sameEvent(a: Known, b: Known): boolean {
  return a.key === b.key && a.type === b.type && (a.value === undefined || b.value === undefined || a.value === b.value);
}

/** Revision -> event, from every watcher and every acknowledgement; disagreements are `identical` violations. */
function buildReference(input: WatchCheckInput, violations: WatchViolation[]): Map<number, Known> {
  const reference = new Map<number, Known>();
  const add = (rv: number, event: Known, watcher?: string): void => {
    const known = reference.get(rv);
    if (known === undefined) {
      reference.set(rv, event);
    } else if (!sameEvent(known, event)) {
      violations.push({ property: 'identical', resourceVersion: rv, ...(watcher === undefined ? {} : { watcher }), message: `revision ${rv} is ${describe(known)} per ${known.source} but ${describe(event)} per ${event.source}` });
    } else if (known.value === undefined && event.value !== undefined) {
      reference.set(rv, event);
    }
  };
  for (const log of input.logs) {
    for (const segment of log.segments) {
      for (const e of segment.events) if (e.type !== 'BOOKMARK') add(e.resourceVersion, { ...signature(e), source: `${log.watcher}@${segment.replica}` }, log.watcher);
    }
  }
  for (const w of input.acknowledged ?? []) add(w.resourceVersion, { ...signature(w), source: 'the acknowledgement' });
  return reference;
}

function describe(e: Known): string {
  return `${e.type} ${e.key}${e.value === undefined ? '' : ` ${e.value}`}`;
}

function checkOrderAndBookmarks(log: WatchLog, violations: WatchViolation[]): void {
  let lastEvent: LoggedWatchEvent | undefined;
  let lastBookmark = -Infinity;
  const delivered = new Map<number, LoggedWatchEvent>();
  for (const segment of log.segments) {
    for (const e of segment.events) {
      const at = `${log.watcher}@${segment.replica}`;
      if (e.type === 'BOOKMARK') {
        if (e.resourceVersion < lastBookmark) violations.push({ property: 'bookmarkable', watcher: log.watcher, resourceVersion: e.resourceVersion, message: `${at}: bookmark ${e.resourceVersion} after bookmark ${lastBookmark}` });
        lastBookmark = Math.max(lastBookmark, e.resourceVersion);
        continue;
      }
      const before = delivered.get(e.resourceVersion);
      if (before !== undefined) {
        const property = sameEvent(signature(before), signature(e)) ? 'unique' : 'atomic';
        violations.push({ property, watcher: log.watcher, resourceVersion: e.resourceVersion, message: `${at}: revision ${e.resourceVersion} delivered twice (${before.type} ${before.key}, then ${e.type} ${e.key})` });
      } else if (lastEvent !== undefined && e.resourceVersion < lastEvent.resourceVersion) {
        violations.push({ property: 'ordered', watcher: log.watcher, resourceVersion: e.resourceVersion, message: `${at}: revision ${e.resourceVersion} delivered after ${lastEvent.resourceVersion}` });
      }
      if (e.resourceVersion <= lastBookmark) violations.push({ property: 'bookmarkable', watcher: log.watcher, resourceVersion: e.resourceVersion, message: `${at}: event at ${e.resourceVersion} after bookmark ${lastBookmark}` });
      delivered.set(e.resourceVersion, e);
      if (lastEvent === undefined || e.resourceVersion > lastEvent.resourceVersion) lastEvent = e;
    }
  }
}

/** The highest revision a stream reached: its start, or its last event or bookmark. */
function segmentEnd(segment: WatchSegment): number {
  let end = segment.fromResourceVersion;
  for (const e of segment.events) if (e.resourceVersion > end) end = e.resourceVersion;
  return end;
}

/** The index of the first element of ascending `values` above `bound` (values.length if none). */
function firstAbove(values: ArrayLike<number>, bound: number): number {
  let lo = 0;
  let hi = values.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((values[mid] as number) > bound) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

function checkReliableAndResumable(log: WatchLog, reference: ReadonlyMap<number, Known>, violations: WatchViolation[]): void {
  const prefix = log.keyPrefix ?? '';
  // Revisions of the watched keys' events, ascending: each stream's expected events are a range of it.
  const watched = Float64Array.from([...reference].filter(([, e]) => e.key.startsWith(prefix)).map(([rv]) => rv)).sort();
  let lastReceived: number | undefined;
  log.segments.forEach((segment, index) => {
    const at = `${log.watcher}@${segment.replica}`;
    if (index > 0 && segment.afterRelist !== true && lastReceived !== undefined && segment.fromResourceVersion !== lastReceived) {
      violations.push({ property: 'resumable', watcher: log.watcher, resourceVersion: segment.fromResourceVersion, message: `${at}: resumed from ${segment.fromResourceVersion}, but the last revision received was ${lastReceived}` });
    }
    const end = segmentEnd(segment);
    const got = new Set<number>();
    let firstEvent: LoggedWatchEvent | undefined;
    for (const e of segment.events) {
      if (e.type === 'BOOKMARK') continue;
      got.add(e.resourceVersion);
      firstEvent ??= e;
      if (e.resourceVersion <= segment.fromResourceVersion) violations.push({ property: 'resumable', watcher: log.watcher, resourceVersion: e.resourceVersion, message: `${at}: event at ${e.resourceVersion} in a stream started after ${segment.fromResourceVersion}` });
    }
    const from = firstAbove(watched, segment.fromResourceVersion);
    const to = firstAbove(watched, end);
    const firstExpected = from < to ? watched[from] : undefined;
    if (index > 0 && firstExpected !== undefined && firstEvent !== undefined && firstEvent.resourceVersion !== firstExpected) {
      violations.push({ property: 'resumable', watcher: log.watcher, resourceVersion: firstEvent.resourceVersion, message: `${at}: stream from ${segment.fromResourceVersion} began at ${firstEvent.resourceVersion}, not at ${firstExpected}` });
    }
    for (let i = from; i < to; i += 1) {
      const rv = watched[i] as number;
      if (!got.has(rv)) violations.push({ property: 'reliable', watcher: log.watcher, resourceVersion: rv, message: `${at}: gap: ${describe(reference.get(rv) as Known)} at revision ${rv} (within ${segment.fromResourceVersion}..${end}) was not delivered` });
    }
    if (segment.events.length > 0) lastReceived = end;
    else lastReceived ??= segment.fromResourceVersion;
  });
}

/** The revision ranges (from, end] a log's streams covered, merged and ascending, for binary search. */
interface Coverage {
  readonly watcher: string;
  readonly keyPrefix: string;
  readonly starts: number[];
  readonly ends: number[];
}

function coverageOf(log: WatchLog): Coverage {
  const ranges = log.segments.map((s) => [s.fromResourceVersion, segmentEnd(s)] as const).filter(([from, end]) => end > from).sort((a, b) => a[0] - b[0]);
  const starts: number[] = [];
  const ends: number[] = [];
  for (const [from, end] of ranges) {
    if (ends.length > 0 && from <= (ends.at(-1) as number)) ends[ends.length - 1] = Math.max(ends.at(-1) as number, end);
    else {
      starts.push(from);
      ends.push(end);
    }
  }
  return { watcher: log.watcher, keyPrefix: log.keyPrefix ?? '', starts, ends };
}

/** Whether a stream of the log had started before `rv` and reached it (an event or bookmark at or past it). */
function covers(coverage: Coverage, rv: number): boolean {
  // The last range starting below rv is the only one that can hold it (ranges are disjoint; revisions are integers).
  const last = firstAbove(coverage.starts, rv - 1) - 1;
  return last >= 0 && (coverage.ends[last] as number) >= rv;
}

function checkDurable(input: WatchCheckInput, reference: ReadonlyMap<number, Known>, violations: WatchViolation[]): void {
  const coverages = input.logs.map(coverageOf);
  const delivered = new Set<number>();
  for (const log of input.logs) for (const s of log.segments) for (const e of s.events) if (e.type !== 'BOOKMARK') delivered.add(e.resourceVersion);
  for (const write of input.acknowledged ?? []) {
    const rv = write.resourceVersion;
    if (!delivered.has(rv)) {
      const covering = coverages.filter((c) => write.key.startsWith(c.keyPrefix) && covers(c, rv));
      if (covering.length > 0) violations.push({ property: 'durable', resourceVersion: rv, message: `acknowledged ${write.type} ${write.key} at revision ${rv} never appeared in the watch history of ${covering.map((c) => c.watcher).join(', ')}` });
    }
    const known = reference.get(rv);
    if (known !== undefined && !sameEvent(known, { ...signature(write), source: '' })) {
      violations.push({ property: 'durable', resourceVersion: rv, message: `acknowledged ${write.type} ${write.key} at revision ${rv}, but the history has ${describe(known)} there` });
    }
    const final = input.finalState?.get(write.key);
    if (input.finalState !== undefined && write.type !== 'DELETED' && final !== undefined && final < rv) {
      violations.push({ property: 'durable', resourceVersion: rv, message: `acknowledged ${write.type} ${write.key} at revision ${rv}, but the final state holds it at revision ${final}` });
    }
  }
}
