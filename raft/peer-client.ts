/**
 * The sending side towards one peer: ONE long-lived client stream carrying batches of Raft
 * messages from a bounded queue, reconnecting with backoff; chunked snapshot transfers; and
 * forwarded commands. Raft tolerates loss, so when the queue is full or the peer is down,
 * messages are dropped and the peer is reported unreachable.
 */
import * as grpc from '@grpc/grpc-js';
import { createReadStream } from 'node:fs';
import { once } from 'node:events';
import type { Message, NodeId } from './core/types.ts';
import { RaftNodeError } from './errors.ts';
import type { RaftNodeErrorCode } from './errors.ts';
import {
  peerBatchBytesMax, peerBatchMessagesMax, peerQueueMessagesMax, reconnectBackoffMsMax, reconnectBackoffMsMin,
  snapshotChunkBytes, snapshotTransferTimeoutMs,
} from './limits.ts';
import { snapshotPathOf } from './sqlite-log-storage.ts';
import { messageBytes, messageToWire } from './wire.ts';
import type { WireBatch, WireSnapshotChunk } from './wire.ts';

/** The metadata key carrying a RaftNodeError code across a Forward call. */
export const errorCodeMetadataKey = 'orch-raft-error-code';

/** What a peer client reports back to its owner. */
export interface PeerEvents {
  unreachable(peer: NodeId): void;
  snapshotStatus(peer: NodeId, ok: boolean): void;
}

/** Sends to one peer. Owned by the Transport; `close()` ends every call it started. */
export class PeerClient {
  private queue: Message[] = [];
  private stream: grpc.ClientWritableStream<WireBatch> | null = null;
  private waitingDrain = false;
  private flushScheduled = false;
  private backoffMs = reconnectBackoffMsMin;
  private retryAt = 0;
  private snapshotCall: grpc.ClientWritableStream<WireSnapshotChunk> | null = null;
  private closed = false;

  constructor(
    readonly id: NodeId,
    private readonly client: grpc.Client,
    private readonly events: PeerEvents,
  ) {}

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

  private flush(): void {
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
      if (!stream.write({ messages: batch.map(messageToWire) })) {
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

  private open(): grpc.ClientWritableStream<WireBatch> {
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

  /** Sends a command to this peer's application handler; rejects with a RaftNodeError. */
  forward(data: Uint8Array, timeoutMs: number): Promise<Uint8Array> {
    return new Promise((resolve, reject) => {
      (this.client as unknown as RaftStub).Forward({ data }, { deadline: Date.now() + timeoutMs }, (err, res) => {
        if (!err) return resolve(res ? toBytes(res.data) : new Uint8Array(0));
        const code = err.metadata?.get(errorCodeMetadataKey)[0];
        if (typeof code === 'string') return reject(new RaftNodeError(code as RaftNodeErrorCode, err.details));
        const fallback: RaftNodeErrorCode = err.code === grpc.status.DEADLINE_EXCEEDED ? 'Timeout' : 'Unavailable';
        reject(new RaftNodeError(fallback, `forward to ${this.id}: ${err.details || err.message}`));
      });
    });
  }

  /** Ends the stream and any transfer; drops what is queued. */
  close(): void {
    this.closed = true;
    this.queue = [];
    this.stream?.cancel();
    this.stream = null;
    this.snapshotCall?.cancel();
    this.client.close();
  }
}

function toBytes(b: Uint8Array): Uint8Array {
  return b instanceof Buffer ? new Uint8Array(b.buffer, b.byteOffset, b.byteLength) : b;
}

/** The generated client methods this file uses. */
interface RaftStub {
  Stream(cb: (err: grpc.ServiceError | null) => void): grpc.ClientWritableStream<WireBatch>;
  Snapshot(opts: grpc.CallOptions, cb: (err: grpc.ServiceError | null, res?: { accepted: boolean }) => void): grpc.ClientWritableStream<WireSnapshotChunk>;
  Forward(req: { data: Uint8Array }, opts: grpc.CallOptions, cb: (err: grpc.ServiceError | null, res?: { data: Uint8Array }) => void): void;
}
