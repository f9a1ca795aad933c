// Writes a kind's message straight from orch's JSON form, in one pass over the object: no
// intermediate message objects, no per-request reflection (the plan, field-plan.ts, says what
// each field is). Only the fields present in the JSON are written (a Go decoder reads an absent
// field as its zero), in the order the object has its keys (any order is valid Protobuf; Go
// happens to write field-number order); lists unpacked, maps entry by entry, as Go does. Special
// types (special-codecs.ts) turn into their small message form first, which is written from
// protobufjs' plain form (`plain`: proto names; bytes as Uint8Array, or a string standing for its
// UTF-8 bytes). orch's objects are valid, so a value of the wrong type is a bug: a 500.
import { internalError } from '../../registry/errors/status-error.ts';
import type { FieldPlan, MessagePlan } from './field-plan.ts';
import type { Message } from './special-codecs.ts';
import { messageOf } from './to-message.ts';
import type { WireOutput } from './wire-output.ts';

function wrongType(field: FieldPlan, expected: string, value: unknown): never {
  throw internalError(`unable to encode field ${field.jsonName} as Protobuf: expected ${expected}, got ${JSON.stringify(value)?.slice(0, 100)}`);
}

function asRecord(field: FieldPlan, value: unknown): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return wrongType(field, 'an object', value);
  return value as Record<string, unknown>;
}

function specialMessage(field: FieldPlan, value: unknown): Message {
  const plan = field.message as MessagePlan;
  return (plan.special as NonNullable<MessagePlan['special']>).encode(value, field.jsonName, (json, path) => messageOf(plan.nested as MessagePlan, json, path));
}

function writeNested(out: WireOutput, plan: MessagePlan, object: Record<string, unknown>, plain: boolean): void {
  const lengthAt = out.beginDelimited();
  writeFields(out, plan, object, plain);
  out.endDelimited(lengthAt);
}

/** One value (a list element, a map value or a single field), its tag already written. */
function writeValue(out: WireOutput, field: FieldPlan, value: unknown, plain: boolean): void {
  switch (field.kind) {
    case 'string':
      if (typeof value !== 'string') return wrongType(field, 'a string', value);
      out.string(value);
      return;
    case 'bool':
      if (typeof value !== 'boolean') return wrongType(field, 'a boolean', value);
      out.byte(value ? 1 : 0);
      return;
    case 'int32':
    case 'int64':
      if (typeof value !== 'number' || !Number.isSafeInteger(value)) return wrongType(field, 'an integer', value);
      out.varint(value);
      return;
    case 'double':
      if (typeof value !== 'number' || !Number.isFinite(value)) return wrongType(field, 'a number', value);
      out.double(value);
      return;
    case 'bytes':
      if (!plain) {
        if (typeof value !== 'string') return wrongType(field, 'a base64 string', value);
        out.bytes(Buffer.from(value, 'base64'));
      } else if (typeof value === 'string') out.string(value); // its UTF-8 bytes (special-codecs.ts's Message)
      else out.bytes(value as Uint8Array);
      return;
    case 'special':
      writeNested(out, field.message as MessagePlan, plain ? asRecord(field, value) : specialMessage(field, value), true);
      return;
    default: // a message, or in plain form an inlined struct (protobufjs keeps it as a message of its own)
      writeNested(out, field.message as MessagePlan, asRecord(field, value), plain);
  }
}

function writeMap(out: WireOutput, field: FieldPlan, map: Record<string, unknown>, plain: boolean): void {
  for (const key in map) {
    const value = map[key];
    if (value === undefined || value === null) continue;
    out.varint(field.tag);
    const lengthAt = out.beginDelimited();
    out.byte(0x0a); // the key: field 1, length-delimited
    out.string(key);
    out.byte(field.mapValueTag);
    writeValue(out, field, value, plain);
    out.endDelimited(lengthAt);
  }
}

function writeField(out: WireOutput, field: FieldPlan, value: unknown, plain: boolean): void {
  if (field.map) writeMap(out, field, asRecord(field, value), plain);
  else if (field.repeated) {
    if (!Array.isArray(value)) return wrongType(field, 'a list', value);
    for (const item of value) {
      out.varint(field.tag);
      writeValue(out, field, item, plain);
    }
  } else {
    out.varint(field.tag);
    writeValue(out, field, value, plain);
  }
}

/** Writes the fields `object` has (the keys it has: fewer than the fields its message declares). */
function writeFields(out: WireOutput, plan: MessagePlan, object: Record<string, unknown>, plain: boolean): void {
  const byName = plain ? plan.byProtoName : plan.byJsonName;
  for (const key in object) {
    const field = byName.get(key);
    const value = object[key];
    if (field === undefined || value === undefined || value === null) continue;
    writeField(out, field, value, plain);
  }
  if (!plain && plan.hasInline) writeInlined(out, plan, object);
}

/** A struct Go inlines in the JSON (its fields are `object`'s keys) is a message of its own on the wire, written if one of its fields is there. */
function writeInlined(out: WireOutput, plan: MessagePlan, object: Record<string, unknown>): void {
  for (const field of plan.writeOrder) {
    if (field.kind !== 'inline') continue;
    const tagAt = out.pos;
    out.varint(field.tag);
    const lengthAt = out.beginDelimited();
    writeFields(out, field.message as MessagePlan, object, false);
    if (out.pos === lengthAt + 1) out.pos = tagAt; // none of its fields: not written
    else out.endDelimited(lengthAt);
  }
}

/**
 * Writes the fields of `object` (orch's JSON form of a `plan` kind), without the message's length:
 * a part of a message written in pieces (a list's head, then its items a page at a time).
 */
export function writeMessageFields(out: WireOutput, plan: MessagePlan, object: Record<string, unknown>): void {
  writeFields(out, plan, object, false);
}

/** Writes the message of `object` (orch's JSON form of a `plan` kind) as a length-delimited value. */
export function writeObjectDelimited(out: WireOutput, plan: MessagePlan, object: Record<string, unknown>): void {
  writeNested(out, plan, object, false);
}
