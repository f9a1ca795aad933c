// One frame of a Protobuf watch stream, as kube-apiserver writes it: the stream serializer is
// the raw one (no magic, no Unknown) behind a length-delimited framer, and the event's object is
// encoded by the embedded encoder, the full envelope. So a frame is a 4-byte big-endian length,
// then metav1.WatchEvent{type = 1, object = 2: RawExtension{raw = 1: `k8s\0` + Unknown{...}}}.
import { writeEnvelope } from './envelope.ts';
import { WireOutput } from './wire-output.ts';

/** Wire tags: field number << 3 | wire type 2 (length-delimited). */
const eventTypeTag = (1 << 3) | 2;
const eventObjectTag = (2 << 3) | 2;
const rawExtensionRawTag = (1 << 3) | 2;

/** The byte length of a frame's length prefix. */
export const watchFrameLengthBytes = 4;

/** The frame of one event; `writeRaw` writes the object's message as envelope.ts's writeEnvelope says. */
export function watchFrame(eventType: string, apiVersion: string, kind: string, writeRaw: (out: WireOutput) => void): Buffer {
  const out = new WireOutput();
  out.reserve(watchFrameLengthBytes);
  out.pos += watchFrameLengthBytes; // the length, set once the frame is whole
  out.byte(eventTypeTag);
  out.string(eventType);
  out.byte(eventObjectTag);
  const objectAt = out.beginDelimited();
  out.byte(rawExtensionRawTag);
  const rawAt = out.beginDelimited();
  writeEnvelope(out, apiVersion, kind, writeRaw);
  out.endDelimited(rawAt);
  out.endDelimited(objectAt);
  const frame = out.finish();
  frame.writeUInt32BE(frame.length - watchFrameLengthBytes, 0);
  return frame;
}
