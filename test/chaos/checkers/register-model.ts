// The per-key register model of the object store, and the partitioning of a history by key
// (P-compositionality: a history is linearizable iff each key's sub-history is).
//
// A key holds nothing, or a value with the resourceVersion of the write that produced it. A
// version may be unknown (the write that produced it had an unknown outcome) until a read binds it.
import { canonicalJson, type Operation } from './history.ts';

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
  /** Text for counterexamples. */
  readonly description: string;
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

function describe(op: Operation, index: number, key: string, result: string): string {
  const input = op.input.value === undefined ? '' : ` ${canonicalJson(op.input.value)}`;
  const expected = op.input.expectedResourceVersion === undefined ? '' : ` if rv=${op.input.expectedResourceVersion}`;
  const end = op.outcome === 'unknown' ? 'inf' : String(op.completeMs);
  return `#${index} ${op.process} ${op.type} ${key}${input}${expected} -> ${result} [${op.invokeMs}, ${end}]`;
}

function resultText(op: Operation): string {
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
 * Splits a history into per-key operation lists; lists become one read per known key under their
 * prefix. Written values that no read returned are replaced by `unobservedValue`, so that states
 * differing only in them merge.
 */
export function partitionByKey(history: readonly Operation[], options: PartitionOptions = {}): Map<string, KeyOperation[]> {
  const keys = new Set<string>();
  for (const op of history) {
    if (op.type !== 'list') keys.add(op.key);
    for (const item of op.output?.items ?? []) keys.add(item.key);
  }
  const partitions = new Map<string, KeyOperation[]>([...keys].sort().map((k) => [k, []]));
  history.forEach((op, index) => {
    if (op.type === 'list') {
      if (op.outcome !== 'ok') return;
      for (const key of keys) {
        if (!key.startsWith(op.key)) continue;
        const item = op.output?.items?.find((i) => i.key === key);
        const read = item === undefined ? { found: false } : { found: true, value: item.value, resourceVersion: item.resourceVersion };
        partitions.get(key)?.push(normalize({ ...op, type: 'get', key, output: read }, index, `list ${op.key}: ${item === undefined ? 'no item' : `${canonicalJson(item.value)} rv ${item.resourceVersion}`}`));
      }
      return;
    }
    const normalized = keep(op) ? normalize(op, index) : undefined;
    if (normalized === undefined) return;
    const trusted = op.type !== 'delete' || options.deleteReportsDeletionRevision === true;
    const { outputResourceVersion: _ignored, ...withoutRevision } = normalized;
    partitions.get(op.key)?.push(trusted ? normalized : withoutRevision);
  });
  for (const [key, ops] of partitions) partitions.set(key, hideUnobservedValues(ops));
  return partitions;
}

function hideUnobservedValues(ops: readonly KeyOperation[]): KeyOperation[] {
  const observed = new Set(ops.filter((op) => op.kind === 'read' && op.value !== undefined).map((op) => op.value));
  return ops.map((op) => (op.kind === 'read' || op.value === undefined || observed.has(op.value) ? op : { ...op, value: unobservedValue }));
}

/** Operations that carry no information are left out: failed or unknown reads, writes refused without a telling code. */
function keep(op: Operation): boolean {
  if (op.type === 'get') return op.outcome === 'ok';
  if (op.outcome === 'fail') return op.output?.code === 404 || op.output?.code === 409;
  return true;
}

function normalize(op: Operation, index: number, listNote?: string): KeyOperation {
  const isRead = op.type === 'get';
  const value = isRead ? (op.output?.found === true ? canonicalJson(op.output.value) : undefined) : op.input.value === undefined ? undefined : canonicalJson(op.input.value);
  const description = describe(op, index, op.key, listNote ?? resultText(op));
  return {
    historyIndex: index,
    process: op.process,
    kind: isRead ? 'read' : (op.type as 'create' | 'cas-update' | 'delete'),
    outcome: op.outcome,
    ...(value === undefined ? {} : { value }),
    ...(op.input.expectedResourceVersion === undefined ? {} : { expectedResourceVersion: op.input.expectedResourceVersion }),
    ...(op.output?.resourceVersion === undefined ? {} : { outputResourceVersion: op.output.resourceVersion }),
    ...(op.output?.code === undefined ? {} : { failCode: op.output.code }),
    invokeMs: op.invokeMs,
    completeMs: op.outcome === 'unknown' ? Infinity : op.completeMs,
    description,
  };
}
