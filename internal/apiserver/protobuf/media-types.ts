// The media types of Kubernetes' Protobuf wire format.

/** Kubernetes' Protobuf media type, as client-go sends and asks for it. */
export const protobufMediaType = 'application/vnd.kubernetes.protobuf';

/** orch's own name for the same format (SPEC.md, Content negotiation). */
export const protobufMediaTypeAlias = 'application/vnd.orch.protobuf';

/** The 4 bytes `k8s\0` that begin every Protobuf body (not the frames of a watch stream). */
export const protobufMagic: Buffer = Buffer.from([0x6b, 0x38, 0x73, 0x00]);

/** Whether bytes begin with the magic `k8s\0`. */
export function hasProtobufMagic(bytes: Uint8Array): boolean {
  return bytes.length >= protobufMagic.length && bytes[0] === protobufMagic[0] && bytes[1] === protobufMagic[1] && bytes[2] === protobufMagic[2] && bytes[3] === protobufMagic[3];
}
