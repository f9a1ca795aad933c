/**
 * The sending side towards one peer: ONE long-lived client stream carrying batches of Raft
 * messages from a bounded queue, reconnecting with backoff; chunked snapshot transfers; and
 * forwarded commands, coalesced into ForwardBatch calls (forward-batcher.ts). Raft tolerates loss, so when the queue is full or the peer is down,
 * messages are dropped and the peer is reported unreachable.
 */
import * as grpc from '@grpc/grpc-js';
import { createReadStream } from 'node:fs';
import { once } from 'node:events';
import type { Message, NodeId } from './core/types.ts';
import { RaftNodeError } from './errors.ts';
import { ForwardBatcher } from './forward-batcher.ts';
import type { ForwardBatcherLimits, ForwardItemResult } from './forward-batcher.ts';
import {
  peerBatchBytesMax, peerBatchMessagesMax, peerQueueMessagesMax, reconnectBackoffMsMax, reconnectBackoffMsMin,
  snapshotChunkBytes, snapshotTransferTimeoutMs,
} from './limits.ts';
import { snapshotPathOf } from './sqlite-log-storage.ts';
import { forwardResultFromWire, messageBytes, messageToWire } from './wire.ts';
import type { WireForwardBatchRequest, WireForwardResult, WireSnapshotChunk } from './wire.ts';
import type { OutgoingBatch } from './batch-codec.ts';

/** The metadata key carrying a RaftNodeError code across a (single-command) Forward call. */
export const errorCodeMetadataKey = 'orch-raft-error-code';

/** What a peer client reports back to its owner. */
export interface PeerEvents {
  unreachable(peer: NodeId): void;
  snapshotStatus(peer: NodeId, ok: boolean): void;
}

/** Sends to one peer. Owned by the Transport; `close()` ends every call it started. */
export class PeerClient {
  private queue: Message[] = [];
  private stream: grpc.ClientWritableStream<OutgoingBatch> | null = null;
  private waitingDrain = false;
  private flushScheduled = false;
  private backoffMs = reconnectBackoffMsMin;
  private retryAt = 0;
  private snapshotCall: grpc.ClientWritableStream<WireSnapshotChunk> | null = null;
  private closed = false;
  private readonly forwards: ForwardBatcher;

  constructor(
    readonly id: NodeId,
    private readonly client: grpc.Client,
    private readonly events: PeerEvents,
    forwardLimits?: ForwardBatcherLimits,
  ) {
    this.forwards = new ForwardBatcher(id, (commands, deadline, onResult) => this.sendForwardBatch(commands, deadline, onResult), forwardLimits);
  }

  /** Queues a message; returns false (and drops it) when the queue is full or the peer is down. */
  enqueue(m: Message): boolean {
    if (this.closed) return false;
    if (m.type === 'snap') {
      void this.sendSnapshot(m);
      return true;
    }
    if (this.queue.length >= peerQueueMessagesMax || (!this.stream && Date.now() < this.retryAt)) return false;
    this.queue.push(m);
    if (!this.flushScheduled) {
      this.flushScheduled = true;
      setImmediate(() => {
        this.flushScheduled = false;
        this.flush();
      });
    }
    return true;
  }

  /** Writes what is queued to the stream (in batches) unless the stream is waiting to drain. */
  flush(): void {
    if (this.closed || this.waitingDrain || this.queue.length === 0) return;
    const stream = this.stream ?? this.open();
    while (this.queue.length > 0) {
      const batch: Message[] = [];
      let bytes = 0;
      while (this.queue.length > 0 && batch.length < peerBatchMessagesMax) {
        const size = messageBytes(this.queue[0]!);
        if (batch.length > 0 && bytes + size > peerBatchBytesMax) break;
        bytes += size;
        batch.push(this.queue.shift()!);
      }
      if (!stream.write({ messages: batch })) {
        this.waitingDrain = true;
        stream.once('drain', () => {
          this.waitingDrain = false;
          this.flush();
        });
        return;
      }
    }
    if (this.client.getChannel().getConnectivityState(false) === grpc.connectivityState.READY) this.backoffMs = reconnectBackoffMsMin;
  }

  private open(): grpc.ClientWritableStream<OutgoingBatch> {
    const stream = (this.client as unknown as RaftStub).Stream((err: grpc.ServiceError | null) => {
      if (this.stream !== stream) return;
      this.stream = null;
      this.waitingDrain = false;
      if (this.closed) return;
      if (err) {
        this.retryAt = Date.now() + this.backoffMs;
        this.backoffMs = Math.min(this.backoffMs * 2, reconnectBackoffMsMax);
      }
      if (this.queue.length > 0) {
        this.queue = [];
        this.events.unreachable(this.id);
      }
    });
    stream.on('error', () => {}); // reported through the callback above
    this.stream = stream;
    return stream;
  }

  private async sendSnapshot(m: Message): Promise<void> {
    if (this.snapshotCall || !m.snapshot) return; // one transfer at a time; the core retries later
    let ok = false;
    try {
      ok = await this.transferSnapshot(m, snapshotPathOf(m.snapshot));
    } catch {
      ok = false;
    } finally {
      this.snapshotCall = null;
    }
    if (!this.closed) this.events.snapshotStatus(this.id, ok);
  }

  private async transferSnapshot(m: Message, filePath: string): Promise<boolean> {
    let settle!: (ok: boolean) => void;
    const result = new Promise<boolean>((resolve) => (settle = resolve));
    const call = (this.client as unknown as RaftStub).Snapshot({ deadline: Date.now() + snapshotTransferTimeoutMs }, (err, res) => {
      settle(!err && res?.accepted === true);
    });
    this.snapshotCall = call;
    call.on('error', () => {});
    try {
      call.write({ message: messageToWire(m), data: new Uint8Array(0), last: false });
      for await (const chunk of createReadStream(filePath, { highWaterMark: snapshotChunkBytes })) {
        if (this.closed) throw new Error('peer client closed');
        if (!call.write({ message: null, data: chunk as Buffer, last: false })) await Promise.race([once(call, 'drain'), result]);
      }
    } catch {
      call.cancel(); // the receiver discards a transfer that does not end with `last`
      return false;
    }
    call.end({ message: null, data: new Uint8Array(0), last: true });
    return result;
  }

  /**
   * Sends a command to this peer's application handler, in one ForwardBatch call with the other
   * commands forwarded in the same turn; rejects with a RaftNodeError (see ForwardBatcher.forward).
   */
  forward(data: Uint8Array, timeoutMs: number): Promise<Uint8Array> {
    return this.forwards.forward(data, timeoutMs);
  }

  /** ForwardBatch calls started and the commands they carried. */
  forwardStats(): { batches: number; commands: number } {
    const { batches, commands } = this.forwards.stats();
    return { batches, commands };
  }

  private sendForwardBatch(commands: readonly Uint8Array[], deadline: number, onResult: (position: number, r: ForwardItemResult) => void): Promise<void> {
    return new Promise((resolve, reject) => {
      const call = (this.client as unknown as RaftStub).ForwardBatch({ commands: [...commands] }, { deadline });
      call.on('data', (w: WireForwardResult) => {
        const { position, result } = forwardResultFromWire(w);
        onResult(position, result);
      });
      call.on('error', (err: grpc.ServiceError) => {
        const code = err.code === grpc.status.DEADLINE_EXCEEDED ? 'Timeout' : 'Unavailable';
        reject(new RaftNodeError(code, `forward to ${this.id}: ${err.details || err.message}`));
      });
      call.on('end', () => resolve());
    });
  }

  /** Ends the stream and any transfer; drops what is queued. */
  close(): void {
    this.closed = true;
    this.queue = [];
    this.forwards.close();
    this.stream?.cancel();
    this.stream = null;
    this.snapshotCall?.cancel();
    this.client.close();
  }
}

/** The generated client methods this file uses. */
interface RaftStub {
  Stream(cb: (err: grpc.ServiceError | null) => void): grpc.ClientWritableStream<OutgoingBatch>;
  Snapshot(opts: grpc.CallOptions, cb: (err: grpc.ServiceError | null, res?: { accepted: boolean }) => void): grpc.ClientWritableStream<WireSnapshotChunk>;
  ForwardBatch(req: WireForwardBatchRequest, opts: grpc.CallOptions): grpc.ClientReadableStream<WireForwardResult>;
}
