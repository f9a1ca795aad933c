/**
 * The calling side of Join and Promote: one short-lived gRPC channel to any member's peer address
 * (the caller need not be a member, nor know the member's name), with this node's peer
 * certificate. The answers and refusals come back as MembershipAnswer and RaftNodeError.
 */
import * as grpc from '@grpc/grpc-js';
import { RaftNodeError } from './errors.ts';
import { membershipCallTimeoutMs } from './limits.ts';
import { errorCodeMetadataKey } from './peer-client.ts';
import { peerChannelOptions, peerTarget } from './transport.ts';
import type { TlsMaterial } from './transport.ts';
import { loadRaftService } from './raft-service.ts';
import { errorCodeFromWire, membershipAnswerFromWire } from './wire.ts';
import type { MembershipAnswer, MembershipRequest, WireMembershipAnswer } from './wire.ts';

const Raft = loadRaftService();

type UnaryMethod = (request: unknown, options: grpc.CallOptions, cb: (err: grpc.ServiceError | null, res?: WireMembershipAnswer) => void) => grpc.ClientUnaryCall;

/** Asks the member at `address` (host:port) for `request`; rejects with RaftNodeError (Stopped once `signal` aborts). */
export function askMembership(tls: TlsMaterial, address: string, request: MembershipRequest, signal?: AbortSignal, timeoutMs = membershipCallTimeoutMs): Promise<MembershipAnswer> {
  const target = peerTarget(address);
  const credentials = grpc.credentials.createSsl(Buffer.from(tls.ca), Buffer.from(tls.key), Buffer.from(tls.cert));
  const client = new Raft(target, credentials, peerChannelOptions(target));
  const stub = client as unknown as { Join: UnaryMethod; Promote: UnaryMethod };
  const call = request.kind === 'join' ? stub.Join.bind(client) : stub.Promote.bind(client);
  const body = request.kind === 'join' ? { name: request.name, peerAddress: request.peerAddress } : { name: request.name };
  return new Promise<MembershipAnswer>((resolve, reject) => {
    const cancel = (): void => pending.cancel();
    const pending = call(body, { deadline: Date.now() + timeoutMs }, (err, res) => {
      signal?.removeEventListener('abort', cancel);
      client.close();
      if (signal?.aborted) reject(new RaftNodeError('Stopped', 'the Raft node is stopped'));
      else if (err) reject(membershipCallError(err, address));
      else if (!res) reject(new RaftNodeError('Remote', `${request.kind} at ${address}: empty answer`));
      else resolve(membershipAnswerFromWire(res));
    });
    signal?.addEventListener('abort', cancel, { once: true });
  });
}

function membershipCallError(err: grpc.ServiceError, address: string): RaftNodeError {
  const message = `${address}: ${err.details || err.message}`;
  if (err.code === grpc.status.PERMISSION_DENIED) return new RaftNodeError('PermissionDenied', message);
  if (err.code === grpc.status.DEADLINE_EXCEEDED) return new RaftNodeError('Timeout', message);
  const code = err.metadata?.get(errorCodeMetadataKey)[0];
  if (err.code === grpc.status.FAILED_PRECONDITION && typeof code === 'string') return new RaftNodeError(errorCodeFromWire(code), message);
  return new RaftNodeError('Unavailable', message);
}
