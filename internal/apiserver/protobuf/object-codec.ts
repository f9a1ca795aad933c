// One kind's message ↔ its JSON form: the plan (field-plan.ts) drives both ways, computed once
// per message; message-writer.ts writes the bytes, message-reader.ts reads them.
import type protobuf from 'protobufjs';
import { planOf } from './field-plan.ts';
import { readMessage } from './message-reader.ts';
import { writeMessageFields, writeObjectDelimited } from './message-writer.ts';
import { WireInput } from './wire-input.ts';
import type { WireOutput } from './wire-output.ts';

/** Writes the message of `object` (a JSON object of `type`'s kind), length first; a value of the wrong type is a 500 (orch's own objects are valid). */
export function writeObjectMessage(out: WireOutput, type: protobuf.Type, object: Record<string, unknown>): void {
  writeObjectDelimited(out, planOf(type), object);
}

/** Writes the fields of `object` (some of `type`'s), its length not first: a part of the message, written in pieces. */
export function writeObjectFields(out: WireOutput, type: protobuf.Type, object: Record<string, unknown>): void {
  writeMessageFields(out, planOf(type), object);
}

/** The JSON form of `raw`, a message of `type` (no apiVersion/kind: messages do not carry them); malformed bytes are a 400. */
export function readObjectMessage(type: protobuf.Type, raw: Uint8Array): Record<string, unknown> {
  return readMessage(new WireInput(raw), planOf(type), raw.length, 0, false);
}
