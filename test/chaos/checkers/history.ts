// The record of a chaos run that the checkers judge: client operations with their real-time
// intervals and outcomes, and the logs of watch streams. Pure data, no I/O.

/** Kinds of client operation the register model understands. */
export type OpType = 'create' | 'cas-update' | 'delete' | 'get' | 'list';

/**
 * How an operation ended: `ok` (acknowledged), `fail` (definitely did not take effect: the server
 * refused it or it never reached the server) or `unknown` (timeout, connection lost: it may have
 * taken effect at any time after its invocation, or never).
 */
export type Outcome = 'ok' | 'fail' | 'unknown';

/** One object version as a client saw it. */
export interface VersionedValue {
  readonly key: string;
  readonly value: unknown;
  readonly resourceVersion: number;
}

/** What an operation was asked to do. */
export interface OpInput {
  /** New value (create, cas-update). */
  readonly value?: unknown;
  /** Compare-and-swap precondition (cas-update; optional for delete). */
  readonly expectedResourceVersion?: number;
}

/** What an operation answered; which fields are set depends on the type and outcome. */
export interface OpOutput {
  /** Version assigned by a successful create/cas-update/delete. */
  readonly resourceVersion?: number;
  /** get: whether the key existed; with `value` and `resourceVersion` when it did. */
  readonly found?: boolean;
  readonly value?: unknown;
  /** list: the items of the key range at the list's version. */
  readonly items?: readonly VersionedValue[];
  /** fail: the HTTP code (409 and 404 carry information; other codes only say "not applied"). */
  readonly code?: number;
}

/** One client operation of a history. */
export interface Operation {
  /** Client (process) that issued it; one client has at most one operation in flight. */
  readonly process: string;
  readonly type: OpType;
  /** The object key; for `list`, the key prefix that was listed. */
  readonly key: string;
  readonly input: OpInput;
  readonly output?: OpOutput;
  /** Invocation and completion times (ms, any common clock). */
  readonly invokeMs: number;
  /** Ignored (treated as infinity) when the outcome is `unknown`. */
  readonly completeMs: number;
  readonly outcome: Outcome;
}

/** The event types that a watch stream carries (ERROR handling stays inside the client). */
export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK';

/** One event as a watcher received it (BOOKMARK events have an empty key). */
export interface LoggedWatchEvent {
  readonly type: WatchEventType;
  readonly key: string;
  readonly resourceVersion: number;
  readonly value?: unknown;
}

/** One watch stream: where it was opened, from which version, and what it delivered. */
export interface WatchSegment {
  readonly replica: string;
  /** The requested start version (events must be strictly greater). */
  readonly fromResourceVersion: number;
  /** True when this stream followed a relist after 410 (a gap before `fromResourceVersion` is legitimate). */
  readonly afterRelist?: boolean;
  readonly events: readonly LoggedWatchEvent[];
}

/** Everything one watcher saw: its consecutive streams, resumed one after another. */
export interface WatchLog {
  readonly watcher: string;
  /** Only keys with this prefix are watched (default: all keys). */
  readonly keyPrefix?: string;
  readonly segments: readonly WatchSegment[];
}

/** Deterministic JSON text of a value (object keys sorted), for equality of recorded values. */
export function canonicalJson(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}

/** A write acknowledged to a client, with the version the server gave it. */
export interface AcknowledgedWrite {
  readonly key: string;
  readonly type: 'ADDED' | 'MODIFIED' | 'DELETED';
  readonly resourceVersion: number;
  readonly value?: unknown;
}

/** The acknowledged writes of a history (ok creates, cas-updates and deletes that report a version). */
export function acknowledgedWrites(history: readonly Operation[]): AcknowledgedWrite[] {
  const writes: AcknowledgedWrite[] = [];
  for (const op of history) {
    const rv = op.output?.resourceVersion;
    if (op.outcome !== 'ok' || rv === undefined) continue;
    if (op.type === 'create') writes.push({ key: op.key, type: 'ADDED', resourceVersion: rv, value: op.input.value });
    else if (op.type === 'cas-update') writes.push({ key: op.key, type: 'MODIFIED', resourceVersion: rv, value: op.input.value });
    else if (op.type === 'delete') writes.push({ key: op.key, type: 'DELETED', resourceVersion: rv });
  }
  return writes;
}
