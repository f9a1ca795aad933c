/**
 * The gRPC service of proto/raft.proto, as peer servers serve it and peer clients call it: every
 * method through @grpc/proto-loader's codec but Stream's requests, which take batch-codec.ts's.
 */
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { fileURLToPath } from 'node:url';
import protobuf from 'protobufjs';
import { batchCodec, type OutgoingBatch } from './batch-codec.ts';

const protoPath = fileURLToPath(new URL('../proto/raft.proto', import.meta.url));

let loaded: grpc.ServiceClientConstructor | null = null;

/** The Raft service definition from proto/raft.proto, parsed once per process (the transport and the membership client share it). */
export function loadRaftService(): grpc.ServiceClientConstructor {
  loaded ??= parseRaftService();
  return loaded;
}

function parseRaftService(): grpc.ServiceClientConstructor {
  const def = protoLoader.loadSync(protoPath, { keepCase: false, longs: Number, enums: String, defaults: true, oneofs: false });
  const service = def['orch.raft.v1.Raft'] as protoLoader.ServiceDefinition;
  const codec = batchCodec(loadBatchType());
  // grpc-js hands the serializer what the peer client wrote on the stream (peer-client.ts).
  service['Stream'] = { ...service['Stream']!, requestSerialize: (batch: object) => codec.encode(batch as OutgoingBatch), requestDeserialize: codec.decode };
  const pkg = grpc.loadPackageDefinition(def) as unknown as { orch: { raft: { v1: { Raft: grpc.ServiceClientConstructor } } } };
  return pkg.orch.raft.v1.Raft;
}

/** The protobufjs type orch.raft.v1.Batch (field names in camelCase, as proto-loader's). */
export function loadBatchType(): protobuf.Type {
  return protobuf.loadSync(protoPath).lookupType('orch.raft.v1.Batch');
}
