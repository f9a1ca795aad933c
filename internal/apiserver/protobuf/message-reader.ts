// Reads a kind's message straight into orch's JSON form, in one pass over the bytes, as Go's
// generated Unmarshal reads it: fields in any order, the last of a repeated single field winning
// (a message one merged), lists packed or not, undeclared fields skipped, a declared field with
// the wrong wire type refused (a 400). Go's omitempty is applied on the way: go-to-protobuf writes
// every non-pointer field, zero or not, and Go's JSON drops those zeros, so a zero scalar is kept
// only where the plan says (a Go pointer, or required); a list or map only when it has an element
// (or is required: then `[]`/`{}`); a struct whenever the wire carries it. Special types are read
// in their wire form and handed to their codec (special-codecs.ts).
import { badRequest } from '../../registry/errors/status-error.ts';
import type { FieldPlan, MessagePlan } from './field-plan.ts';
import { protobufMessageDepthMax } from './limits.ts';
import type { Message } from './special-codecs.ts';
import type { WireInput } from './wire-input.ts';

type Json = Record<string, unknown>;

function wrongWireType(plan: MessagePlan, field: FieldPlan, wireType: number): Error {
  return badRequest(`proto: wrong wireType = ${wireType} for field ${field.protoName} of ${plan.type.name}`);
}

function isZeroScalar(value: unknown): boolean {
  return value === '' || value === 0 || value === false;
}

/** One scalar of `field` (its wire type checked), as JSON (`plain`: bytes stay bytes, for a special's codec). */
function readScalar(input: WireInput, field: FieldPlan, end: number, plain: boolean): unknown {
  switch (field.kind) {
    case 'string': {
      const length = input.length(end);
      const start = input.pos;
      input.pos += length;
      return input.buf.toString('utf8', start, start + length);
    }
    case 'bytes': {
      const length = input.length(end);
      const start = input.pos;
      input.pos += length;
      return plain ? input.buf.subarray(start, start + length) : input.buf.toString('base64', start, start + length);
    }
    case 'int32':
      return input.varint(end) | 0;
    case 'int64':
      return input.int64(end);
    case 'bool':
      return input.varint(end) !== 0 || input.hi !== 0;
    case 'double': {
      input.advance(8, end);
      return input.buf.readDoubleLE(input.pos - 8);
    }
    default:
      throw new Error(`assert: ${field.kind} is not a scalar`);
  }
}

/** One value of `field`: a scalar, a message (as JSON) or a special (through its codec); undefined for what Go's JSON writes as null. */
function readValue(input: WireInput, field: FieldPlan, end: number, depth: number, plain: boolean): unknown {
  if (field.kind !== 'message' && field.kind !== 'special' && field.kind !== 'inline') return readScalar(input, field, end, plain);
  const nestedEnd = input.delimitedEnd(end);
  return readMessageValue(input, field, nestedEnd, depth);
}

/** The message of a message or special field ending at `end` (its length read), as JSON. */
function readMessageValue(input: WireInput, field: FieldPlan, end: number, depth: number): unknown {
  const nested = field.message as MessagePlan;
  if (field.kind !== 'special') return readMessage(input, nested, end, depth + 1, false);
  return (nested.special as NonNullable<MessagePlan['special']>).decode(readMessage(input, nested, end, depth + 1, true) as Message);
}

/** A map entry: key (field 1) and value (field 2), either absent meaning its zero, as in Go. */
function readMapEntry(input: WireInput, plan: MessagePlan, field: FieldPlan, end: number, depth: number, plain: boolean): [string, unknown] {
  let key = '';
  let value: unknown;
  let hasValue = false;
  while (input.pos < end) {
    const tag = input.varint(end);
    if (input.hi !== 0 || tag < 8) throw badRequest(`proto: illegal tag ${tag}`);
    const wireType = tag & 7;
    if (tag >>> 3 === 1) {
      if (wireType !== 2) throw wrongWireType(plan, field, wireType);
      const length = input.length(end);
      key = input.buf.toString('utf8', input.pos, input.pos + length);
      input.pos += length;
    } else if (tag >>> 3 === 2) {
      if (wireType !== (field.mapValueTag & 7)) throw wrongWireType(plan, field, wireType);
      value = readValue(input, field, end, depth, plain);
      hasValue = true;
    } else input.skip(wireType, end);
  }
  return [key, hasValue ? value : zeroValue(input, field, depth, plain)];
}

/** An absent map value: Go's zero of its type (an empty message read as such: a Quantity is "0"). */
function zeroValue(input: WireInput, field: FieldPlan, depth: number, plain: boolean): unknown {
  switch (field.kind) {
    case 'string':
      return '';
    case 'bytes':
      return plain ? new Uint8Array(0) : '';
    case 'int32':
    case 'int64':
    case 'double':
      return 0;
    case 'bool':
      return false;
    default:
      return readMessageValue(input, field, input.pos, depth);
  }
}

/** Whether a list of `field` may come packed (one length-delimited run of varints or doubles). */
const packable = (field: FieldPlan): boolean => field.kind === 'int32' || field.kind === 'int64' || field.kind === 'bool' || field.kind === 'double';

/**
 * Reads the fields of a `plan` message up to `end` into `out` (a new object, or the parent's for
 * an inlined struct). `plain`: the wire form a special codec reads (proto names, bytes as bytes).
 */
function readFields(input: WireInput, plan: MessagePlan, end: number, out: Json, depth: number, plain: boolean): void {
  while (input.pos < end) {
    const tag = input.varint(end);
    if (input.hi !== 0 || tag < 8) throw badRequest(`proto: illegal tag ${tag}`);
    const wireType = tag & 7;
    const field = plan.byNumber.get(tag >>> 3);
    if (field === undefined) {
      input.skip(wireType, end);
      continue;
    }
    const name = plain ? field.protoName : field.jsonName;
    if (field.map) {
      if (wireType !== 2) throw wrongWireType(plan, field, wireType);
      const entryEnd = input.delimitedEnd(end);
      const [key, value] = readMapEntry(input, plan, field, entryEnd, depth, plain);
      if (input.pos !== entryEnd) throw badRequest('proto: a map entry overran its length');
      const map = (out[name] ??= {}) as Json;
      if (key === '__proto__') Object.defineProperty(map, key, { value: value ?? null, enumerable: true, writable: true, configurable: true });
      else map[key] = value ?? null;
      continue;
    }
    if (field.repeated) {
      const list = (out[name] ??= []) as unknown[];
      if (wireType === 2 && packable(field)) {
        const runEnd = input.delimitedEnd(end);
        while (input.pos < runEnd) list.push(readScalar(input, field, runEnd, plain));
        continue;
      }
      if (wireType !== field.wireType) throw wrongWireType(plan, field, wireType);
      list.push(readValue(input, field, end, depth, plain) ?? null);
      continue;
    }
    if (wireType !== field.wireType) throw wrongWireType(plan, field, wireType);
    if (field.kind === 'inline' && !plain) {
      // A struct Go inlines in the JSON: its fields go into this object.
      const nestedEnd = input.delimitedEnd(end);
      readNested(input, field.message as MessagePlan, nestedEnd, out, depth + 1);
      continue;
    }
    if (field.kind === 'message' && typeof out[name] === 'object' && out[name] !== null) {
      // A message field sent twice merges, as Go's Unmarshal does.
      const nestedEnd = input.delimitedEnd(end);
      readNested(input, field.message as MessagePlan, nestedEnd, out[name] as Json, depth + 1);
      continue;
    }
    const value = readValue(input, field, end, depth, plain);
    // Go's omitempty (a special codec reads its wire form whole: a Time of the epoch has seconds 0).
    if (value === undefined || (!plain && !field.keepZero && field.kind !== 'special' && isZeroScalar(value))) delete out[name];
    else out[name] = value;
  }
  if (input.pos !== end) throw badRequest('proto: a field overran the length of its message');
}

function readNested(input: WireInput, plan: MessagePlan, end: number, out: Json, depth: number): void {
  if (depth > protobufMessageDepthMax) throw badRequest(`Protobuf messages nested deeper than ${protobufMessageDepthMax}`);
  readFields(input, plan, end, out, depth, false);
}

/** Reads one message of `plan` that ends at `end` into a new object. */
export function readMessage(input: WireInput, plan: MessagePlan, end: number, depth: number, plain: boolean): Json {
  if (depth > protobufMessageDepthMax) throw badRequest(`Protobuf messages nested deeper than ${protobufMessageDepthMax}`);
  const out: Json = {};
  readFields(input, plan, end, out, depth, plain);
  if (!plain) for (const field of plan.requiredCollections) out[field.jsonName] ??= field.map ? {} : [];
  return out;
}
