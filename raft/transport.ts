/**
 * The Raft peer transport over gRPC with mutual TLS: a server that accepts message streams,
 * snapshot transfers and forwarded commands only from peers holding a certificate of the
 * cluster CA, and one PeerClient per peer for sending.
 */
import * as grpc from '@grpc/grpc-js';
import { randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import type { PeerCertificate } from 'node:tls';
import { mkdir, open, rename, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { Message, NodeId } from './core/types.ts';
import { RaftNodeError } from './errors.ts';
import type { ForwardBatcherLimits, ForwardItemResult } from './forward-batcher.ts';
import { forwardBatchItemsMax, forwardTimeoutMsDefault, grpcMessageBytesMax, reconnectBackoffMsMax, reconnectBackoffMsMin } from './limits.ts';
import { PeerClient, errorCodeMetadataKey } from './peer-client.ts';
import { snapshotDataFor } from './sqlite-log-storage.ts';
import { loadRaftService } from './raft-service.ts';
import { forwardResultToWire, messageFromWire } from './wire.ts';
import type { MembershipAnswer, MembershipRequest, WireBatch, WireForwardBatchRequest, WireForwardResult, WireSnapshotChunk } from './wire.ts';

/** PEM material for mutual TLS: the cluster CA and this node's certificate and key. */
export interface TlsMaterial {
  readonly ca: string | Buffer;
  readonly cert: string | Buffer;
  readonly key: string | Buffer;
}

/** What the transport hands to its owner (the RaftNode). */
export interface TransportHandlers {
  /** Messages that arrived from a peer, in arrival order, addressed to this node. */
  onMessages(messages: Message[]): void;
  /**
   * A snapshot arrived complete in `filePath` (its message's snapshot data is that path).
   * The handler owns the file from then on (keeps or deletes it). Returns whether it was accepted.
   */
  onSnapshot(message: Message, filePath: string): boolean;
  /**
   * A forwarded command; the answer goes back to the caller. Reject with RaftNodeError to pass a
   * code (any other error arrives as Remote). The commands of one ForwardBatch call are handed
   * over in order within one turn, so a handler that proposes before its first await puts them
   * all in one Ready.
   */
  onForward(data: Uint8Array): Promise<Uint8Array>;
  /** A message to `peer` could not be delivered. */
  onUnreachable(peer: NodeId): void;
  /** A snapshot transfer to `peer` finished. */
  onSnapshotStatus(peer: NodeId, ok: boolean): void;
  /**
   * The stream `peer` sends its messages on ended or broke: its process most likely stopped or died
   * (a killed process's sockets close at once). Also when it merely reconnects: a hint, not proof.
   */
  onPeerGone?(peer: NodeId): void;
  /**
   * A node asks, in its own name (checked: its certificate's CN), to join or be promoted. Reject
   * with RaftNodeError to pass a code (any other error arrives as Remote). Absent: UNIMPLEMENTED.
   */
  onMembershipRequest?(request: MembershipRequest): Promise<MembershipAnswer>;
}

/** Options of Transport.start. */
export interface TransportOptions {
  readonly id: NodeId;
  /** host:port to listen on; port 0 picks a free one (see `port`). */
  readonly listen: string;
  /** Peer addresses (host:port, optionally with a scheme), excluding or including this node. */
  readonly peers: Readonly<Record<NodeId, string>>;
  readonly tls: TlsMaterial;
  /** Where received snapshot files are assembled. */
  readonly snapshotDir: string;
  readonly handlers: TransportHandlers;
  /**
   * Which authenticated certificate subjects (common names) may act as peers. Default: the
   * common name must be a known peer id (peer certificates carry CN = node id), so another
   * certificate of the same CA (an API client's) cannot inject Raft traffic.
   */
  readonly authorizePeer?: (commonName: string) => boolean;
  /** Bounds of the forward batching towards each peer (default: raft/limits.ts). */
  readonly forwardLimits?: ForwardBatcherLimits;
}

const Raft = loadRaftService();
const channelOptions: grpc.ChannelOptions = {
  'grpc.max_receive_message_length': grpcMessageBytesMax,
  'grpc.max_send_message_length': grpcMessageBytesMax,
  'grpc.initial_reconnect_backoff_ms': reconnectBackoffMsMin,
  'grpc.max_reconnect_backoff_ms': reconnectBackoffMsMax,
  'grpc.keepalive_time_ms': 10_000,
  'grpc.keepalive_timeout_ms': 5_000,
};

/** Strips a URL scheme and trailing path: 'https://h:1/' -> 'h:1'. */
export function peerTarget(address: string): string {
  return address.replace(/^[a-z]+:\/\//i, '').replace(/\/.*$/, '');
}

/** The channel options towards a peer at `target` (host:port). */
export function peerChannelOptions(target: string): grpc.ChannelOptions {
  // TLS server names cannot be IP addresses (RFC 6066); peer certificates always name localhost,
  // and what authenticates a peer is the cluster CA, so IP targets verify against that name.
  const host = target.replace(/:\d+$/, '').replace(/^\[|\]$/g, '');
  return isIP(host) ? { ...channelOptions, 'grpc.ssl_target_name_override': 'localhost' } : channelOptions;
}

/** The gRPC transport of one Raft node. Started by `Transport.start`, ended by `stop()`. */
export class Transport {
  private readonly peers = new Map<NodeId, PeerClient>();
  private readonly addresses = new Map<NodeId, string>();
  private readonly clientCredentials: grpc.ChannelCredentials;
  private retiredForwards = { batches: 0, commands: 0 };

  private constructor(
    private readonly opts: TransportOptions,
    private readonly server: grpc.Server,
    /** The port the server listens on. */
    readonly port: number,
  ) {
    this.clientCredentials = grpc.credentials.createSsl(Buffer.from(opts.tls.ca), Buffer.from(opts.tls.key), Buffer.from(opts.tls.cert));
    for (const [id, address] of Object.entries(opts.peers)) if (id !== opts.id) this.setPeer(id, address);
  }

  /** Starts the server (mutual TLS, client certificates required) and the peer clients. */
  static async start(opts: TransportOptions): Promise<Transport> {
    await mkdir(opts.snapshotDir, { recursive: true });
    const server = new grpc.Server({ 'grpc.max_receive_message_length': grpcMessageBytesMax, 'grpc.max_send_message_length': grpcMessageBytesMax });
    const holder: { t?: Transport } = {};
    server.addService(Raft.service, {
      Stream: (call: grpc.ServerReadableStream<WireBatch, unknown>, cb: grpc.sendUnaryData<unknown>) => holder.t?.onStream(call, cb),
      Snapshot: (call: grpc.ServerReadableStream<WireSnapshotChunk, unknown>, cb: grpc.sendUnaryData<unknown>) => void holder.t?.onSnapshot(call, cb),
      Forward: (call: grpc.ServerUnaryCall<{ data: Uint8Array }, unknown>, cb: grpc.sendUnaryData<unknown>) => holder.t?.onForward(call, cb),
      ForwardBatch: (call: grpc.ServerWritableStream<WireForwardBatchRequest, WireForwardResult>) => holder.t?.onForwardBatch(call),
      Join: (call: grpc.ServerUnaryCall<{ name: string; peerAddress: string }, unknown>, cb: grpc.sendUnaryData<unknown>) =>
        holder.t?.onMembership(call, { kind: 'join', name: call.request.name, peerAddress: call.request.peerAddress }, cb),
      Promote: (call: grpc.ServerUnaryCall<{ name: string }, unknown>, cb: grpc.sendUnaryData<unknown>) =>
        holder.t?.onMembership(call, { kind: 'promote', name: call.request.name }, cb),
    });
    const credentials = grpc.ServerCredentials.createSsl(
      Buffer.from(opts.tls.ca),
      [{ private_key: Buffer.from(opts.tls.key), cert_chain: Buffer.from(opts.tls.cert) }],
      true,
    );
    const port = await new Promise<number>((resolve, reject) => {
      server.bindAsync(opts.listen, credentials, (err, p) => (err ? reject(err) : resolve(p)));
    });
    const t = new Transport(opts, server, port);
    holder.t = t;
    return t;
  }

  /** Adds or replaces the address of a peer. */
  setPeer(id: NodeId, address: string): void {
    if (this.addresses.get(id) === address) return;
    this.addresses.set(id, address);
    this.closePeer(id);
    const target = peerTarget(address);
    const client = new Raft(target, this.clientCredentials, peerChannelOptions(target));
    this.peers.set(id, new PeerClient(id, client, {
      unreachable: (p) => this.opts.handlers.onUnreachable(p),
      snapshotStatus: (p, ok) => this.opts.handlers.onSnapshotStatus(p, ok),
    }, this.opts.forwardLimits));
  }

  /** Forgets a peer and ends its calls. */
  removePeer(id: NodeId): void {
    this.addresses.delete(id);
    this.closePeer(id);
    this.peers.delete(id);
  }

  /** Sends messages (in order per peer); undeliverable ones are dropped and reported unreachable. */
  send(messages: readonly Message[]): void {
    const unreachable = new Set<NodeId>();
    for (const m of messages) {
      const peer = this.peers.get(m.to);
      if (!peer || !peer.enqueue(m)) unreachable.add(m.to);
    }
    for (const id of unreachable) this.opts.handlers.onUnreachable(id);
  }

  /** Hands every queued message to its peer stream now instead of at the end of the turn. */
  flush(): void {
    for (const peer of this.peers.values()) peer.flush();
  }

  /**
   * Forwards a command to peer `to`'s handler, batched with the others forwarded to it in the
   * same turn (PeerClient.forward). Rejects with RaftNodeError.
   */
  forward(to: NodeId, data: Uint8Array, timeoutMs = forwardTimeoutMsDefault): Promise<Uint8Array> {
    const peer = this.peers.get(to);
    if (!peer) return Promise.reject(new RaftNodeError('Unavailable', `no address for peer ${to}`));
    return peer.forward(data, timeoutMs);
  }

  /** ForwardBatch calls this transport sent (to every peer, past ones included) and the commands they carried. */
  forwardStats(): { batches: number; commands: number } {
    let { batches, commands } = this.retiredForwards;
    for (const p of this.peers.values()) {
      const s = p.forwardStats();
      batches += s.batches;
      commands += s.commands;
    }
    return { batches, commands };
  }

  private closePeer(id: NodeId): void {
    const peer = this.peers.get(id);
    if (!peer) return;
    const s = peer.forwardStats();
    this.retiredForwards = { batches: this.retiredForwards.batches + s.batches, commands: this.retiredForwards.commands + s.commands };
    peer.close();
  }

  /** Ends every call and stops the server (in-flight calls are cancelled). */
  async stop(): Promise<void> {
    for (const p of this.peers.values()) p.close();
    this.peers.clear();
    this.server.forceShutdown();
  }

  /** The authenticated peer's id (certificate CN), or null (and the call is refused) when it is not a peer. */
  private authorizedPeer(call: { getAuthContext(): { sslPeerCertificate?: PeerCertificate } | null }, deny: (status: Partial<grpc.StatusObject>) => void): NodeId | null {
    const cn = call.getAuthContext()?.sslPeerCertificate?.subject?.CN;
    // Several CNs: the last, as Go and the API's client-certificate authenticator read a subject.
    const name = Array.isArray(cn) ? cn[cn.length - 1] : cn;
    const allowed = name !== undefined && (this.opts.authorizePeer ? this.opts.authorizePeer(name) : this.peers.has(name) || name === this.opts.id);
    if (allowed) return name;
    deny({ code: grpc.status.PERMISSION_DENIED, details: `certificate subject ${JSON.stringify(name ?? '')} is not a Raft peer` });
    return null;
  }

  /**
   * Join and Promote: any certificate of the cluster CA (mutual TLS checked it) whose CN is the name
   * the request is made for — a node not yet a member may ask for itself, and for no other.
   */
  private onMembership(call: grpc.ServerUnaryCall<unknown, unknown>, request: MembershipRequest, cb: grpc.sendUnaryData<unknown>): void {
    const cn = call.getAuthContext()?.sslPeerCertificate?.subject?.CN;
    const name = Array.isArray(cn) ? cn[cn.length - 1] : cn;
    if (request.name === '' || name !== request.name) {
      cb({ code: grpc.status.PERMISSION_DENIED, details: `certificate subject ${JSON.stringify(name ?? '')} may not ask for membership changes of ${JSON.stringify(request.name)}` });
      return;
    }
    const handler = this.opts.handlers.onMembershipRequest;
    if (!handler) {
      cb({ code: grpc.status.UNIMPLEMENTED, details: 'this node does not serve membership requests' });
      return;
    }
    handler(request).then(
      (answer) => cb(null, answer),
      (err: unknown) => {
        const failure = forwardFailure(err);
        const metadata = new grpc.Metadata();
        metadata.set(errorCodeMetadataKey, failure.code);
        cb({ code: grpc.status.FAILED_PRECONDITION, details: failure.message, metadata });
      },
    );
  }

  private onStream(call: grpc.ServerReadableStream<WireBatch, unknown>, cb: grpc.sendUnaryData<unknown>): void {
    const peer = this.authorizedPeer(call, cb);
    if (peer === null) return;
    let batches = 0;
    call.on('data', (batch: WireBatch) => {
      batches++;
      const messages: Message[] = [];
      for (const w of batch.messages) {
        try {
          const m = messageFromWire(w);
          // A forwarded transferLeader names the transferee in `from`; everything else must come from its sender.
          const sender = m.type === 'transferLeader' || m.from === peer;
          if (m.to === this.opts.id && sender && m.type !== 'snap') messages.push(m);
        } catch {
          // A malformed message from an authenticated peer is dropped: Raft tolerates loss.
        }
      }
      if (messages.length > 0) this.opts.handlers.onMessages(messages);
    });
    let gone = false;
    const peerGone = (): void => {
      if (gone) return;
      gone = true;
      this.opts.handlers.onPeerGone?.(peer);
    };
    call.on('end', () => {
      cb(null, { batches });
      peerGone();
    });
    call.on('cancelled', peerGone);
    call.on('error', peerGone);
  }

  private async onSnapshot(call: grpc.ServerReadableStream<WireSnapshotChunk, unknown>, cb: grpc.sendUnaryData<unknown>): Promise<void> {
    const peer = this.authorizedPeer(call, cb);
    if (peer === null) return;
    call.on('cancelled', () => call.destroy(new Error('snapshot transfer cancelled'))); // ends the loop below
    const tmp = join(this.opts.snapshotDir, `incoming-${randomBytes(6).toString('hex')}.tmp`);
    const file = await open(tmp, 'w');
    let first: WireSnapshotChunk['message'] = null;
    let complete = false;
    try {
      for await (const chunk of call as AsyncIterable<WireSnapshotChunk>) {
        if (!first) first = chunk.message;
        if (chunk.data.byteLength > 0) await file.write(chunk.data);
        if (chunk.last) complete = true;
      }
      await file.sync();
    } catch {
      complete = false;
    } finally {
      await file.close();
    }
    if (!complete || !first || first.type !== 'snap' || first.to !== this.opts.id || first.from !== peer || !first.snapshot) {
      await unlink(tmp).catch(() => {});
      cb({ code: grpc.status.INVALID_ARGUMENT, details: 'incomplete snapshot transfer' });
      return;
    }
    const finalPath = join(this.opts.snapshotDir, `received-${first.snapshot.term}-${first.snapshot.index}-${randomBytes(4).toString('hex')}.db`);
    await rename(tmp, finalPath);
    // The rename must be on disk before the log records the file (then deletes the one it replaces).
    const dir = await open(this.opts.snapshotDir, 'r');
    try {
      await dir.sync();
    } finally {
      await dir.close();
    }
    let accepted = false;
    try {
      accepted = this.opts.handlers.onSnapshot(messageFromWire(first, snapshotDataFor(finalPath)), finalPath);
    } catch {
      accepted = false;
    }
    cb(null, { accepted });
  }

  private onForward(call: grpc.ServerUnaryCall<{ data: Uint8Array }, unknown>, cb: grpc.sendUnaryData<unknown>): void {
    if (this.authorizedPeer(call, cb) === null) return;
    this.opts.handlers.onForward(call.request.data).then(
      (data) => cb(null, { data }),
      (err: unknown) => {
        const failure = forwardFailure(err);
        const metadata = new grpc.Metadata();
        metadata.set(errorCodeMetadataKey, failure.code);
        cb({ code: grpc.status.FAILED_PRECONDITION, details: failure.message, metadata });
      },
    );
  }

  /**
   * Runs every command of the batch through the forward handler in one turn (so the leader
   * proposes them together) and streams each answer back as soon as it is known.
   */
  private onForwardBatch(call: grpc.ServerWritableStream<WireForwardBatchRequest, WireForwardResult>): void {
    if (this.authorizedPeer(call, (status) => call.emit('error', status)) === null) return;
    const commands = call.request.commands ?? [];
    if (commands.length > forwardBatchItemsMax) {
      call.emit('error', { code: grpc.status.INVALID_ARGUMENT, details: `${commands.length} commands in one batch (at most ${forwardBatchItemsMax})` });
      return;
    }
    let unanswered = commands.length;
    const answer = (position: number, result: ForwardItemResult): void => {
      if (call.cancelled) return; // the caller gave up (deadline); it fails these commands itself
      call.write(forwardResultToWire(position, result));
      if (--unanswered === 0) call.end();
    };
    if (unanswered === 0) call.end();
    commands.forEach((data, position) => {
      let outcome: Promise<Uint8Array>;
      try {
        outcome = this.opts.handlers.onForward(data);
      } catch (err) {
        outcome = Promise.reject(err instanceof Error ? err : new Error(String(err)));
      }
      outcome.then(
        (d) => answer(position, { ok: true, data: d }),
        (err: unknown) => answer(position, forwardFailure(err)),
      );
    });
  }
}

/** A forward handler's failure as sent back: its RaftNodeError code, or Remote for any other error. */
function forwardFailure(err: unknown): ForwardItemResult & { ok: false } {
  return { ok: false, code: err instanceof RaftNodeError ? err.code : 'Remote', message: err instanceof Error ? err.message : String(err) };
}
