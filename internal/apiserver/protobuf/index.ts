// The Protobuf codec's public face: what the HTTP layer calls. Everything else in this directory
// is its implementation.
//
// As kube-apiserver (v1.28) decodes Protobuf bodies: fields a message does not declare are skipped
// silently, and fieldValidation (Strict/Warn) does not apply, since only the JSON and YAML decoders
// are strict; duplicate fields cannot be told apart either (the last one wins, as in Go).
// Known fields with the wrong wire type, truncated or malformed bytes are a 400.
import { StatusError, badRequest, internalError } from '../../registry/errors/status-error.ts';
import type protobuf from 'protobufjs';
import { fairTurn } from '../../registry/generic/fair-turns.ts';
import { envelopeAround, readEnvelope, writeEnvelope } from './envelope.ts';
import { messageTypeOf } from './kinds.ts';
import { embeddedEnvelopeDepthMax } from './limits.ts';
import { protobufMediaType } from './media-types.ts';
import { readObjectMessage, writeObjectFields, writeObjectMessage } from './object-codec.ts';
import { setEmbeddedProtobufDecoder } from './special-codecs.ts';
import { watchFrame } from './watch-frame.ts';
import { WireOutput } from './wire-output.ts';

export { protobufMagic, protobufMediaType, protobufMediaTypeAlias } from './media-types.ts';
export { hasProtobuf } from './kinds.ts';
export { watchFrameLengthBytes } from './watch-frame.ts';

/** A JSON-form Kubernetes object: apiVersion and kind set, the rest as orch stores and serves it. */
export type KubeObject = Record<string, unknown>;

/** The apiVersion, kind and message type of an object to encode. */
function typeMetaOf(object: KubeObject): { apiVersion: string; kind: string; type: protobuf.Type } {
  const { apiVersion, kind } = object;
  if (typeof apiVersion !== 'string' || typeof kind !== 'string') throw internalError('an object to encode as Protobuf has no apiVersion or kind');
  const type = messageTypeOf(apiVersion, kind);
  if (type === undefined) throw new StatusError(406, 'NotAcceptable', `${kind} in version "${apiVersion}" has no Protobuf encoding`);
  return { apiVersion, kind, type };
}

/**
 * The Protobuf body of an object: `k8s\0` then runtime.Unknown{typeMeta{apiVersion, kind}, raw,
 * contentEncoding "", contentType ""}, byte for byte as kube writes it. Throws a StatusError: 406
 * NotAcceptable when its apiVersion/kind has no message (hasProtobuf false), 500 when the object
 * does not fit its message (a value of the wrong type: orch's objects are valid).
 */
export function encodeProtobuf(object: KubeObject): Buffer {
  const { apiVersion, kind, type } = typeMetaOf(object);
  const out = new WireOutput();
  writeEnvelope(out, apiVersion, kind, (o) => writeObjectMessage(o, type, object));
  return out.finish();
}

/**
 * encodeProtobuf of a list given as its head (apiVersion, kind, metadata: no items) and its items'
 * pages, encoded a page at a time with a turn of the event loop between pages: the same bytes, in
 * pieces, without one long step that would hold the replica's thread for seconds. The envelope
 * carries the message's length before it, so the pieces are only complete once every page is in.
 */
export async function encodeProtobufListPieces(head: KubeObject, pages: AsyncIterable<readonly KubeObject[]>): Promise<Buffer[]> {
  const { apiVersion, kind, type } = typeMetaOf(head);
  const encode = (part: KubeObject): Buffer => {
    const out = new WireOutput();
    writeObjectFields(out, type, part);
    return out.finish();
  };
  const parts = [encode(head)];
  for await (const items of pages) {
    parts.push(encode({ items }));
    await fairTurn();
  }
  const { head: opening, tail } = envelopeAround(apiVersion, kind, parts.reduce((sum, part) => sum + part.length, 0));
  return [opening, ...parts, tail];
}

/**
 * The JSON form of a Protobuf body (`k8s\0` + runtime.Unknown): `kind` and `apiVersion` from
 * typeMeta, then the message's fields as orch's JSON has them (Go's omitempty applied). Throws a
 * StatusError: 400 for no magic, truncated or malformed bytes, a raw that does not decode, a wrong
 * wire type, a missing kind or apiVersion, a contentEncoding/contentType other than none/Protobuf;
 * 415 UnsupportedMediaType for an apiVersion/kind without a message; 413 past limits.ts's size.
 */
export function decodeProtobuf(body: Uint8Array): KubeObject {
  const envelope = readEnvelope(body);
  if (envelope.contentEncoding !== '') throw badRequest(`the Protobuf body's content encoding "${envelope.contentEncoding}" is not supported`);
  if (envelope.contentType !== '' && envelope.contentType !== protobufMediaType) throw badRequest(`the Protobuf body's raw content type "${envelope.contentType}" is not supported`);
  if (envelope.kind === '') throw badRequest(`Object 'Kind' is missing in the Protobuf body's typeMeta`);
  if (envelope.apiVersion === '') throw badRequest(`Object 'apiVersion' is missing in the Protobuf body's typeMeta`);
  const type = messageTypeOf(envelope.apiVersion, envelope.kind);
  if (type === undefined) {
    throw new StatusError(415, 'UnsupportedMediaType', `${envelope.kind} in version "${envelope.apiVersion}" has no Protobuf encoding; send it as application/json`);
  }
  const object: KubeObject = { kind: envelope.kind, apiVersion: envelope.apiVersion, ...readObjectMessage(type, envelope.raw) };
  withItemTypeMeta(object);
  return object;
}

/**
 * A List's items carry no apiVersion/kind on the wire (their messages have none); orch's JSON
 * lists name them, so a decoded List's items get the list's apiVersion and item kind back.
 */
function withItemTypeMeta(list: KubeObject): void {
  const { apiVersion, kind, items } = list as { apiVersion: string; kind: string; items?: unknown };
  if (!kind.endsWith('List') || !Array.isArray(items)) return;
  const itemKind = kind.slice(0, -'List'.length);
  if (messageTypeOf(apiVersion, itemKind) === undefined) return;
  list.items = items.map((item: unknown) => (typeof item === 'object' && item !== null ? { apiVersion, kind: itemKind, ...item } : item));
}

/**
 * One frame of a Protobuf watch stream: a 4-byte big-endian length, then a metav1.WatchEvent
 * (no magic, no Unknown around it) whose object.raw is encodeProtobuf(object), magic included.
 * ERROR events carry a metav1.Status (apiVersion v1); BOOKMARK events the watched kind with only
 * metadata.resourceVersion (and annotations). Throws as encodeProtobuf does.
 */
export function encodeProtobufWatchFrame(type: string, object: KubeObject): Buffer {
  const typeMeta = typeMetaOf(object);
  return watchFrame(type, typeMeta.apiVersion, typeMeta.kind, (o) => writeObjectMessage(o, typeMeta.type, object));
}

/** How many envelopes deep the RawExtension being decoded sits (decoding is synchronous, so one counter serves). */
let embeddedDepth = 0;

// A RawExtension holding `k8s\0`… (e.g. ControllerRevision.data from a Protobuf client) decodes to its JSON object.
setEmbeddedProtobufDecoder((raw) => {
  if (embeddedDepth >= embeddedEnvelopeDepthMax) throw badRequest(`Protobuf objects embedded deeper than ${embeddedEnvelopeDepthMax}`);
  embeddedDepth++;
  try {
    return decodeProtobuf(raw);
  } finally {
    embeddedDepth--;
  }
});
