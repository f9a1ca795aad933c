// The Storage interface over a replica's applied state; subclasses decide how a command reaches
// the log (applied directly, or through Raft) and what a linearizable read must wait for.
import type { AppliedState } from './applied-state.ts';
import { newRequestId, type Command, type CommandResult } from './commands.ts';
import { valueBytesMax } from './limits.ts';
import type { RetentionCompactor } from './retention-compactor.ts';
import { inChildSpan } from '../tracing/spans.ts';
import type { Span } from '@opentelemetry/api';
import {
  revision, StorageError,
  type GetOptions, type KeyValue, type ListOptions, type ListResult, type ReadConsistency, type Revision,
  type Storage, type Watcher, type WatchOptions, type WritePrecondition,
} from './storage.ts';

/** A Storage whose reads, watches and revisions come from one replica's SQLite state machine. */
export abstract class StateMachineStorage implements Storage {
  protected compactor: RetentionCompactor | null = null;

  constructor(
    protected readonly state: AppliedState,
    /** Names this replica in request ids. */
    protected readonly replicaName: string,
  ) {}

  /** Puts a command in the log and returns its result as applied on this replica. */
  protected abstract submit(command: Command): Promise<CommandResult>;
  /** Waits until a linearizable read on this replica would see every acknowledged write. */
  protected abstract confirmRead(): Promise<void>;

  async get(key: string, options?: GetOptions): Promise<KeyValue | null> {
    await this.beforeRead(options?.consistency);
    return this.state.machine.get(key, options?.revision);
  }

  async list(options: ListOptions): Promise<ListResult> {
    if (options.limit !== undefined && (!Number.isSafeInteger(options.limit) || options.limit < 0)) {
      throw new Error(`assert: bad list limit ${options.limit}`);
    }
    await this.beforeRead(options.consistency);
    return this.state.machine.list(options);
  }

  // Each write is a `Create storage` / `Update storage` / `Delete storage` span under the request's
  // (kube's `Create etcd3`...), with the Raft commit inside it (replicated-storage.ts).
  create(key: string, value: Uint8Array): Promise<KeyValue> {
    return inChildSpan('Create storage', () => ({ key, 'value.bytes': value.byteLength }), async (span) => {
      checkValueSize(key, value);
      const result = await this.submit({ op: 'create', key, value, ...this.stamp() });
      return withRevision(span, keyValueOf(key, value, result));
    });
  }

  update(key: string, value: Uint8Array, precondition?: WritePrecondition): Promise<KeyValue> {
    const expected = precondition?.expectedRevision;
    return inChildSpan('Update storage', () => ({ key, 'value.bytes': value.byteLength, ...(expected === undefined ? {} : { 'expected.revision': expected }) }), async (span) => {
      checkValueSize(key, value);
      const result = await this.submit({ op: 'update', key, value, ...(expected !== undefined ? { expectedRevision: expected } : {}), ...this.stamp() });
      return withRevision(span, keyValueOf(key, value, result));
    });
  }

  delete(key: string, precondition?: WritePrecondition): Promise<KeyValue> {
    const expected = precondition?.expectedRevision;
    return inChildSpan('Delete storage', () => ({ key, ...(expected === undefined ? {} : { 'expected.revision': expected }) }), async (span) => {
      const result = await this.submit({ op: 'delete', key, ...(expected !== undefined ? { expectedRevision: expected } : {}), ...this.stamp() });
      return withRevision(span, keyValueOf(key, undefined, result));
    });
  }

  watch(options: WatchOptions): Watcher {
    this.checkOpen();
    return this.state.hub.watch(options);
  }

  async currentRevision(): Promise<Revision> {
    await this.beforeRead('linearizable');
    return this.state.machine.currentRevision();
  }

  localRevision(): Revision {
    return this.state.machine.currentRevision();
  }

  compactedRevision(): Revision {
    return this.state.machine.compactedRevision();
  }

  async compact(rev: Revision): Promise<void> {
    const result = await this.submit({ op: 'compact', revision: rev, ...this.stamp() });
    if (!result.ok) throw failureError(result);
  }

  waitForRevision(rev: Revision, timeoutMs: number): Promise<void> {
    return this.state.waitForRevision(rev, timeoutMs);
  }

  async close(): Promise<void> {
    this.compactor?.stop();
    this.state.close();
  }

  protected checkOpen(): void {
    if (this.state.isClosed()) throw new StorageError('Unavailable', 'storage is closed');
  }

  private async beforeRead(consistency: ReadConsistency | undefined): Promise<void> {
    this.checkOpen();
    if (consistency !== 'local') await this.confirmRead();
    this.checkOpen();
  }

  private stamp(): { requestId: string; timestampMs: number } {
    this.checkOpen();
    return { requestId: newRequestId(this.replicaName), timestampMs: Date.now() };
  }
}

function checkValueSize(key: string, value: Uint8Array): void {
  if (value.byteLength > valueBytesMax) {
    throw new StorageError('ValueTooLarge', `value of ${key} is ${value.byteLength} bytes, more than the limit of ${valueBytesMax}`);
  }
}

/** The KeyValue a successful write produced, or its failure as a StorageError. */
function keyValueOf(key: string, written: Uint8Array | undefined, result: CommandResult): KeyValue {
  if (!result.ok) throw failureError(result);
  const value = written ?? result.value;
  if (value === undefined) throw new Error(`assert: delete result of ${key} carries no value`);
  return { key, value, createRevision: revision(result.createRevision), modRevision: revision(result.revision) };
}

function failureError(result: Extract<CommandResult, { ok: false }>): StorageError {
  const current = result.currentRevision;
  return new StorageError(result.code, result.message, current === undefined ? undefined : revision(current));
}

/** A write's outcome on its span (when it has one): the revision it made. */
function withRevision(span: Span | undefined, kv: KeyValue): KeyValue {
  span?.setAttribute('revision', kv.modRevision);
  return kv;
}
