/**
 * Coalesces the commands a follower forwards to one peer (the leader) into ForwardBatch calls:
 * every command issued in the same turn of the event loop goes out in one call, and while
 * `inFlightMax` calls are outstanding further commands queue and go out together when one
 * ends. The leader proposes a call's commands together, so they share one Ready and one fsync.
 * Each command keeps its own deadline and its own outcome: a failed command never fails the
 * others, and a failed call fails only the commands it had not answered yet.
 */
import type { NodeId } from './core/types.ts';
import { RaftNodeError } from './errors.ts';
import type { RaftNodeErrorCode } from './errors.ts';
import { forwardBatchBytesMax, forwardBatchItemsMax, forwardBatchesInFlightMax, forwardQueueItemsMax } from './limits.ts';

/** The leader's answer to one forwarded command: its handler's bytes, or the coded error it failed with. */
export type ForwardItemResult =
  | { readonly ok: true; readonly data: Uint8Array }
  | { readonly ok: false; readonly code: RaftNodeErrorCode; readonly message: string };

/**
 * Starts one ForwardBatch call carrying `commands`, ending by `deadline` (ms since the epoch).
 * Calls `onResult` at most once per position, in any order, as answers arrive. The promise
 * resolves when the call ended normally and rejects with a RaftNodeError (Unavailable, Timeout)
 * when it failed; positions left unanswered then fail with that error.
 */
export type SendForwardBatch = (
  commands: readonly Uint8Array[],
  deadline: number,
  onResult: (position: number, result: ForwardItemResult) => void,
) => Promise<void>;

/** The bounds a ForwardBatcher keeps (defaults: raft/limits.ts). */
export interface ForwardBatcherLimits {
  /** Commands in one call (a call holds at least one). */
  readonly itemsMax: number;
  /** Command bytes in one call (a call holds at least one command, however large). */
  readonly bytesMax: number;
  /** Calls in flight at once. */
  readonly inFlightMax: number;
  /** Commands waiting to be sent; more are refused with QueueFull. */
  readonly queueItemsMax: number;
}

/** The limits of raft/limits.ts. */
export const defaultForwardBatcherLimits: ForwardBatcherLimits = {
  itemsMax: forwardBatchItemsMax, bytesMax: forwardBatchBytesMax, inFlightMax: forwardBatchesInFlightMax, queueItemsMax: forwardQueueItemsMax,
};

interface Pending {
  readonly data: Uint8Array;
  readonly deadline: number;
  readonly resolve: (data: Uint8Array) => void;
  readonly reject: (err: RaftNodeError) => void;
  timer: NodeJS.Timeout | null;
  settled: boolean;
}

/** Batches forwards to one peer. `close()` fails what is still queued; calls in flight run to their end. */
export class ForwardBatcher {
  private queue: Pending[] = [];
  private inFlight = 0;
  private flushScheduled = false;
  private closed = false;
  private batchesSent = 0;
  private commandsSent = 0;

  constructor(
    private readonly peer: NodeId,
    private readonly send: SendForwardBatch,
    private readonly limits: ForwardBatcherLimits = defaultForwardBatcherLimits,
  ) {
    if (limits.itemsMax < 1 || limits.inFlightMax < 1 || limits.bytesMax < 1) throw new Error('assert: forward batcher limits must be positive');
  }

  /**
   * Sends `data` to the peer's forward handler with the next batch; resolves with its answer.
   * Rejects with RaftNodeError: the code the leader gave this command, Timeout after
   * `timeoutMs`, Unavailable when the call failed, QueueFull, or Unavailable once closed.
   */
  forward(data: Uint8Array, timeoutMs: number): Promise<Uint8Array> {
    if (this.closed) return Promise.reject(new RaftNodeError('Unavailable', `forward to ${this.peer}: peer client closed`));
    if (this.queue.length >= this.limits.queueItemsMax) {
      return Promise.reject(new RaftNodeError('QueueFull', `forward to ${this.peer}: ${this.queue.length} commands already waiting`));
    }
    return new Promise<Uint8Array>((resolve, reject) => {
      const item: Pending = { data, deadline: Date.now() + timeoutMs, resolve, reject, timer: null, settled: false };
      item.timer = setTimeout(() => {
        this.settle(item, new RaftNodeError('Timeout', `forward to ${this.peer}: no answer within ${timeoutMs} ms`));
      }, timeoutMs);
      this.queue.push(item);
      this.scheduleFlush();
    });
  }

  /** Calls started and commands they carried so far: commands/batches is the coalescing factor. */
  stats(): { batches: number; commands: number; inFlight: number; queued: number } {
    return { batches: this.batchesSent, commands: this.commandsSent, inFlight: this.inFlight, queued: this.queue.length };
  }

  /** Fails every queued command with Unavailable and refuses new ones; calls in flight still deliver their answers. */
  close(): void {
    this.closed = true;
    const queued = this.queue;
    this.queue = [];
    for (const item of queued) this.settle(item, new RaftNodeError('Unavailable', `forward to ${this.peer}: peer client closed`));
  }

  private scheduleFlush(): void {
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    // After the current turn, so every forward issued in it joins the same call.
    setImmediate(() => {
      this.flushScheduled = false;
      this.flush();
    });
  }

  private flush(): void {
    while (!this.closed && this.inFlight < this.limits.inFlightMax) {
      const batch = this.takeBatch();
      if (batch.length === 0) return;
      this.start(batch);
    }
  }

  /** Takes the next batch off the queue within the limits, skipping commands that already timed out. */
  private takeBatch(): Pending[] {
    const batch: Pending[] = [];
    let bytes = 0;
    let taken = 0;
    for (; taken < this.queue.length && batch.length < this.limits.itemsMax; taken++) {
      const item = this.queue[taken]!;
      if (item.settled) continue;
      if (batch.length > 0 && bytes + item.data.byteLength > this.limits.bytesMax) break;
      bytes += item.data.byteLength;
      batch.push(item);
    }
    this.queue.splice(0, taken);
    return batch;
  }

  private start(batch: Pending[]): void {
    this.inFlight++;
    this.batchesSent++;
    this.commandsSent += batch.length;
    const deadline = Math.max(...batch.map((item) => item.deadline));
    const onResult = (position: number, result: ForwardItemResult): void => {
      const item = batch[position];
      if (item) this.settle(item, result.ok ? result.data : new RaftNodeError(result.code, result.message));
    };
    let call: Promise<void>;
    try {
      call = this.send(batch.map((item) => item.data), deadline, onResult);
    } catch (err) {
      call = Promise.reject(err instanceof Error ? err : new Error(String(err)));
    }
    call.then(
      () => this.failUnanswered(batch, new RaftNodeError('Unavailable', `forward to ${this.peer}: the call ended without an answer`)),
      (err: unknown) => {
        const e = err instanceof RaftNodeError ? err : new RaftNodeError('Unavailable', `forward to ${this.peer}: ${String(err)}`);
        this.failUnanswered(batch, e);
      },
    ).finally(() => {
      this.inFlight--;
      this.flush();
    });
  }

  private failUnanswered(batch: readonly Pending[], err: RaftNodeError): void {
    for (const item of batch) this.settle(item, err);
  }

  private settle(item: Pending, outcome: Uint8Array | RaftNodeError): void {
    if (item.settled) return;
    item.settled = true;
    if (item.timer) clearTimeout(item.timer);
    if (outcome instanceof RaftNodeError) item.reject(outcome);
    else item.resolve(outcome);
  }
}
