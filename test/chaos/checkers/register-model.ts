// The per-key register model of the object store, and the partitioning of a history by key
// (P-compositionality: a history is linearizable iff each key's sub-history is).
//
// A key holds nothing, or a value with the resourceVersion of the write that produced it. A
// version may be unknown (the write that produced it had an unknown outcome) until a read binds it.
import { canonicalJson, type Operation, type VersionedValue } from './history.ts';

/**
 * State of one key. `resourceVersion` undefined means "a version we have not observed"; it is then
 * known to be greater than `floorResourceVersion` (revisions only grow). When the version is known,
 * the floor equals it.
 */
export interface RegisterState {
  readonly exists: boolean;
  readonly value?: string;
  readonly resourceVersion?: number;
  readonly floorResourceVersion: number;
}

/** The empty register: the key does not exist and no version was seen. */
export const absent: RegisterState = { exists: false, floorResourceVersion: 0 };

/** One operation on one key, normalized for the model. `completeMs` is Infinity for unknown outcomes. */
export interface KeyOperation {
  /** Index of the source operation in the history (a list yields one KeyOperation per key). */
  readonly historyIndex: number;
  readonly process: string;
  readonly kind: 'create' | 'cas-update' | 'delete' | 'read';
  readonly outcome: 'ok' | 'fail' | 'unknown';
  readonly value?: string;
  readonly expectedResourceVersion?: number;
  readonly outputResourceVersion?: number;
  readonly failCode?: number;
  readonly invokeMs: number;
  readonly completeMs: number;
}

/**
 * Whether the key's current version can be `version`: equal when known; when not, above the floor
 * and below `ceiling` (the version of the next acknowledged write still to be linearized: versions
 * are handed out in linearization order).
 */
function canBe(state: RegisterState, version: number, ceiling: number): boolean {
  return state.resourceVersion === undefined ? version > state.floorResourceVersion && version < ceiling : state.resourceVersion === version;
}

/** The state after a write that stored `value` (undefined value: a delete). */
function afterWrite(state: RegisterState, op: KeyOperation, exists: boolean): RegisterState | undefined {
  const last = state.resourceVersion ?? state.floorResourceVersion;
  const known = op.outcome === 'ok' ? op.outputResourceVersion : undefined;
  if (known !== undefined && known <= last) return undefined;
  const floor = known ?? last;
  if (!exists) return { exists: false, floorResourceVersion: floor };
  return { exists: true, ...(op.value === undefined ? {} : { value: op.value }), ...(known === undefined ? {} : { resourceVersion: known }), floorResourceVersion: floor };
}

/**
 * Applies one operation to a state: the next state (the same object when nothing changes), or
 * undefined when the operation cannot happen here. `ceiling`: see canBe.
 */
export function step(state: RegisterState, op: KeyOperation, ceiling = Infinity): RegisterState | undefined {
  if (op.outcome === 'fail') return stepFailed(state, op);
  const expected = op.expectedResourceVersion;
  switch (op.kind) {
    case 'create':
      return state.exists ? undefined : afterWrite(state, op, true);
    case 'cas-update':
      return state.exists && (expected === undefined || canBe(state, expected, ceiling)) ? afterWrite(state, op, true) : undefined;
    case 'delete':
      return state.exists && (expected === undefined || canBe(state, expected, ceiling)) ? afterWrite(state, op, false) : undefined;
    case 'read': {
      if (op.value === undefined) return state.exists ? undefined : state;
      const version = op.outputResourceVersion;
      if (!state.exists || state.value !== op.value) return undefined;
      if (version === undefined || state.resourceVersion !== undefined) return version === undefined || state.resourceVersion === version ? state : undefined;
      return canBe(state, version, ceiling) ? { ...state, resourceVersion: version, floorResourceVersion: version } : undefined;
    }
  }
}

/**
 * Whether an unknown-outcome operation can never take effect from this state on: its
 * compare-and-swap version is already behind (versions only grow along a linearization).
 */
export function isDead(state: RegisterState, op: KeyOperation): boolean {
  const expected = op.expectedResourceVersion;
  if (op.outcome !== 'unknown' || expected === undefined) return false;
  return state.resourceVersion === undefined ? state.floorResourceVersion >= expected : state.resourceVersion > expected;
}

/** A refused write changes nothing, but its code says what the server saw. */
function stepFailed(state: RegisterState, op: KeyOperation): RegisterState | undefined {
  if (op.failCode === 404) return state.exists ? undefined : state;
  if (op.failCode !== 409) return state;
  if (!state.exists) return undefined;
  if (op.kind === 'create') return state;
  const expected = op.expectedResourceVersion;
  return expected === undefined || state.resourceVersion !== expected ? state : undefined;
}

/** Memo key of a state. */
export function stateKey(state: RegisterState): string {
  return `${state.exists ? 1 : 0}|${state.resourceVersion ?? '?'}|${state.floorResourceVersion}|${state.value ?? ''}`;
}

/** Text of a state for counterexamples. */
export function describeState(state: RegisterState): string {
  return state.exists ? `value ${state.value ?? '(none)'} at rv ${state.resourceVersion ?? `(unobserved, > ${state.floorResourceVersion})`}` : 'absent';
}

/** Text of one key operation for counterexamples, from the history it came from. */
export function describeKeyOperation(history: readonly Operation[], op: KeyOperation, key: string): string {
  const source = history[op.historyIndex] as Operation;
  const input = source.input.value === undefined ? '' : ` ${canonicalJson(source.input.value)}`;
  const expected = source.input.expectedResourceVersion === undefined ? '' : ` if rv=${source.input.expectedResourceVersion}`;
  const end = source.outcome === 'unknown' ? 'inf' : String(source.completeMs);
  return `#${op.historyIndex} ${source.process} ${source.type} ${key}${input}${expected} -> ${resultText(source, key)} [${source.invokeMs}, ${end}]`;
}

function resultText(op: Operation, key: string): string {
  if (op.type === 'list') {
    const item = op.output?.items?.find((i) => i.key === key);
    return `list ${op.key}: ${item === undefined ? 'no item' : `${canonicalJson(item.value)} rv ${item.resourceVersion}`}`;
  }
  if (op.outcome !== 'ok') return op.outcome + (op.output?.code === undefined ? '' : ` ${op.output.code}`);
  if (op.type === 'get') return op.output?.found === true ? `${canonicalJson(op.output.value)} rv ${op.output.resourceVersion}` : 'not found';
  return op.output?.resourceVersion === undefined ? 'ok' : `ok rv ${op.output.resourceVersion}`;
}

/** Stands for a written value that no read ever returned: such values cannot be told apart. */
export const unobservedValue = '<never read>';

/** How to read a history. */
export interface PartitionOptions {
  /**
   * Whether a successful delete reports the revision of the deletion (as Kubernetes does) rather
   * than the deleted object's last revision. Only then is it used as a revision. Default false.
   */
  readonly deleteReportsDeletionRevision?: boolean;
}

/**
 * Splits a history into per-key operation lists, one key at a time in key order, so that only one
 * key's operations are held at once however long the history; lists become one read per known key
 * under their prefix. Written values that no read returned are replaced by `unobservedValue`, so
 * that states differing only in them merge.
 */
export function* partitionsByKey(history: readonly Operation[], options: PartitionOptions = {}): Generator<[string, KeyOperation[]]> {
  // One pass collects, per key, the indexes of its own operations and of the lists that held it
  // (with the item's position), so a key's reads from lists cost O(1) each, not a search per list.
  const perKey = new Map<string, { own: number[]; listed: number[]; itemAt: number[] }>();
  const lists: number[] = [];
  const of = (key: string): { own: number[]; listed: number[]; itemAt: number[] } => {
    let entry = perKey.get(key);
    if (entry === undefined) perKey.set(key, (entry = { own: [], listed: [], itemAt: [] }));
    return entry;
  };
  history.forEach((op, index) => {
    if (op.type !== 'list') {
      of(op.key).own.push(index);
      return;
    }
    const items = op.output?.items ?? [];
    for (let i = 0; i < items.length; i += 1) {
      const entry = of((items[i] as VersionedValue).key);
      if (op.outcome !== 'ok' || entry.listed.at(-1) === index) continue;
      entry.listed.push(index);
      entry.itemAt.push(i);
    }
    if (op.outcome === 'ok') lists.push(index);
  });
  for (const key of [...perKey.keys()].sort()) {
    const { own, listed, itemAt } = perKey.get(key) as { own: number[]; listed: number[]; itemAt: number[] };
    perKey.delete(key);
    const ops: KeyOperation[] = [];
    let l = 0;
    let held = 0;
    // Merge the key's own operations with the lists that cover it, in history order.
    for (let i = 0; i <= own.length; i += 1) {
      const next = i < own.length ? (own[i] as number) : Infinity;
      for (; l < lists.length && (lists[l] as number) < next; l += 1) {
        const index = lists[l] as number;
        const op = history[index] as Operation;
        if (!key.startsWith(op.key)) continue;
        const found = listed[held] === index;
        ops.push(listRead(op, index, found ? ((op.output?.items ?? [])[itemAt[held] as number] as VersionedValue) : undefined));
        if (found) held += 1;
      }
      if (next === Infinity) break;
      const op = history[next] as Operation;
      if (!keep(op)) continue;
      ops.push(normalize(op, next, op.type !== 'delete' || options.deleteReportsDeletionRevision === true));
    }
    yield [key, hideUnobservedValues(ops)];
  }
}

function hideUnobservedValues(ops: KeyOperation[]): KeyOperation[] {
  const observed = new Set(ops.filter((op) => op.kind === 'read' && op.value !== undefined).map((op) => op.value));
  for (const op of ops) if (op.kind !== 'read' && op.value !== undefined && !observed.has(op.value)) (op as { value?: string }).value = unobservedValue;
  return ops;
}

/** Operations that carry no information are left out: failed or unknown reads, writes refused without a telling code. */
function keep(op: Operation): boolean {
  if (op.type === 'get') return op.outcome === 'ok';
  if (op.outcome === 'fail') return op.output?.code === 404 || op.output?.code === 409;
  return true;
}

/** A list as one read of a key: its item there, or its absence. */
function listRead(op: Operation, index: number, item: VersionedValue | undefined): KeyOperation {
  return keyOperation(index, op, 'read', 'ok', item === undefined ? undefined : canonicalJson(item.value), undefined, item?.resourceVersion, undefined, op.completeMs);
}

/**
 * One key operation, every field present (undefined when not set) so that all of them share one
 * object shape: millions are made for a long history, and mixed shapes cost several times more.
 */
function keyOperation(historyIndex: number, op: Operation, kind: KeyOperation['kind'], outcome: KeyOperation['outcome'], value: string | undefined, expectedResourceVersion: number | undefined, outputResourceVersion: number | undefined, failCode: number | undefined, completeMs: number): KeyOperation {
  return { historyIndex, process: op.process, kind, outcome, value, expectedResourceVersion, outputResourceVersion, failCode, invokeMs: op.invokeMs, completeMs };
}

function normalize(op: Operation, index: number, trustRevision: boolean): KeyOperation {
  const isRead = op.type === 'get';
  const value = isRead ? (op.output?.found === true ? canonicalJson(op.output.value) : undefined) : op.input.value === undefined ? undefined : canonicalJson(op.input.value);
  const kind = isRead ? 'read' : (op.type as 'create' | 'cas-update' | 'delete');
  return keyOperation(index, op, kind, op.outcome, value, op.input.expectedResourceVersion, trustRevision ? op.output?.resourceVersion : undefined, op.output?.code, op.outcome === 'unknown' ? Infinity : op.completeMs);
}
