// The Protobuf envelope of a body: the magic `k8s\0`, then runtime.Unknown{typeMeta{apiVersion,
// kind} = 1, raw = 2, contentEncoding = 3, contentType = 4}, written as kube's protobuf Serializer
// writes it (runtime.Unknown.NestedMarshalTo): all four fields, the last two empty ("none" and
// "the Protobuf media type"), and raw the kind's message written in place (no second buffer).
import { WireInput } from './wire-input.ts';
import { WireOutput } from './wire-output.ts';
import { StatusError, badRequest } from '../../registry/errors/status-error.ts';
import { protobufBodyBytesMax } from './limits.ts';
import { hasProtobufMagic, protobufMagic } from './media-types.ts';

/** Wire tags: field number << 3 | wire type 2 (length-delimited). */
const typeMetaTag = (1 << 3) | 2;
const apiVersionTag = (1 << 3) | 2;
const kindTag = (2 << 3) | 2;
const rawTag = (2 << 3) | 2;
const contentEncodingTag = (3 << 3) | 2;
const contentTypeTag = (4 << 3) | 2;

/** What an envelope says: the kind's identity and its encoded message. */
export interface Envelope {
  readonly apiVersion: string;
  readonly kind: string;
  /** The kind's message bytes (a view into the body, not a copy). */
  readonly raw: Uint8Array;
  readonly contentEncoding: string;
  readonly contentType: string;
}

/**
 * Writes the envelope of one object at the output's position (magic included); `writeRaw`
 * writes the kind's message as a length-delimited value (its length first), which is `raw`.
 */
export function writeEnvelope(out: WireOutput, apiVersion: string, kind: string, writeRaw: (out: WireOutput) => void): void {
  out.reserve(protobufMagic.length);
  out.pos += protobufMagic.copy(out.buf, out.pos);
  out.byte(typeMetaTag);
  const typeMetaAt = out.beginDelimited();
  out.byte(apiVersionTag);
  out.string(apiVersion);
  out.byte(kindTag);
  out.string(kind);
  out.endDelimited(typeMetaAt);
  out.byte(rawTag);
  writeRaw(out);
  out.byte(contentEncodingTag);
  out.byte(0);
  out.byte(contentTypeTag);
  out.byte(0);
}

/**
 * The envelope around a raw message of `rawBytes` bytes written apart (a list encoded a page at
 * a time): `head` is everything writeEnvelope writes before the message's bytes (its length
 * included), `tail` everything after.
 */
export function envelopeAround(apiVersion: string, kind: string, rawBytes: number): { readonly head: Buffer; readonly tail: Buffer } {
  const out = new WireOutput();
  writeEnvelope(out, apiVersion, kind, (o) => o.varint(rawBytes));
  const written = out.finish();
  const tailBytes = 4; // contentEncoding and contentType, both empty
  return { head: written.subarray(0, written.length - tailBytes), tail: written.subarray(written.length - tailBytes) };
}

/** Reads runtime.TypeMeta{apiVersion = 1, kind = 2} up to `end`. */
function readTypeMeta(input: WireInput, end: number): { apiVersion: string; kind: string } {
  const typeMeta = { apiVersion: '', kind: '' };
  while (input.pos < end) {
    const tag = input.varint(end);
    if (input.hi === 0 && (tag === apiVersionTag || tag === kindTag)) {
      const length = input.length(end);
      typeMeta[tag === apiVersionTag ? 'apiVersion' : 'kind'] = input.buf.toString('utf8', input.pos, input.pos + length);
      input.pos += length;
    } else if (input.hi === 0 && (tag >>> 3 === 1 || tag >>> 3 === 2)) throw badRequest(`proto: wrong wireType = ${tag & 7} for field ${tag >>> 3} of TypeMeta`);
    else input.skip(tag & 7, end);
  }
  return typeMeta;
}

/**
 * Reads an envelope, as kube's protobuf Serializer.Decode does: no magic is a 400 (its message),
 * nothing after the magic is a 400, malformed bytes are a 400, a body over the limit is a 413.
 */
export function readEnvelope(body: Uint8Array): Envelope {
  if (body.length > protobufBodyBytesMax) throw new StatusError(413, 'RequestEntityTooLarge', `the Protobuf body is larger than ${protobufBodyBytesMax} bytes`);
  if (body.length === 0) throw badRequest('empty data');
  if (!hasProtobufMagic(body)) throw badRequest('provided data does not appear to be a protobuf message, expected prefix [107 56 115 0]');
  if (body.length === protobufMagic.length) throw badRequest('empty body');
  const input = new WireInput(body);
  input.pos = protobufMagic.length;
  const end = body.length;
  const envelope: { -readonly [K in keyof Envelope]: Envelope[K] } = { apiVersion: '', kind: '', raw: new Uint8Array(0), contentEncoding: '', contentType: '' };
  while (input.pos < end) {
    const tag = input.varint(end);
    if (input.hi !== 0 || tag < 8) throw badRequest(`proto: illegal tag ${tag}`);
    if (tag >>> 3 > 4) {
      input.skip(tag & 7, end); // a field runtime.Unknown does not declare
      continue;
    }
    if ((tag & 7) !== 2) throw badRequest(`proto: wrong wireType = ${tag & 7} for field ${tag >>> 3} of Unknown`);
    const length = input.length(end);
    const fieldEnd = input.pos + length;
    if (tag === typeMetaTag) Object.assign(envelope, readTypeMeta(input, fieldEnd));
    else if (tag === rawTag) envelope.raw = input.buf.subarray(input.pos, fieldEnd);
    else envelope[tag === contentEncodingTag ? 'contentEncoding' : 'contentType'] = input.buf.toString('utf8', input.pos, fieldEnd);
    input.pos = fieldEnd;
  }
  return envelope;
}
