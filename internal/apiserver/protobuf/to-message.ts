// orch's JSON form → protobufjs' plain form (proto names, bytes as Uint8Array), by a message plan:
// how a special codec hands a schema it holds (apiextensions' JSONSchemaPropsOr* unions) to the
// message writer. Only the fields present in the JSON are kept. The objects are orch's own
// (stored and valid), so a value of the wrong type is a 500.
import { internalError } from '../../registry/errors/status-error.ts';
import type { FieldPlan, MessagePlan } from './field-plan.ts';
import type { Message } from './special-codecs.ts';

function invalid(path: string, expected: string, value: unknown): never {
  throw internalError(`unable to encode ${path} as Protobuf: expected ${expected}, got ${JSON.stringify(value)?.slice(0, 100)}`);
}

function scalarValue(field: FieldPlan, value: unknown, path: string): unknown {
  switch (field.kind) {
    case 'string':
      return typeof value === 'string' ? value : invalid(path, 'a string', value);
    case 'bool':
      return typeof value === 'boolean' ? value : invalid(path, 'a boolean', value);
    case 'int32':
    case 'int64':
    case 'double':
      return typeof value === 'number' && Number.isFinite(value) ? value : invalid(path, 'a number', value);
    case 'bytes':
      return typeof value === 'string' ? Buffer.from(value, 'base64') : invalid(path, 'a base64 string', value);
    default:
      throw new Error(`assert: ${field.kind} is not a scalar`);
  }
}

function elementValue(field: FieldPlan, value: unknown, path: string): unknown {
  if (field.kind === 'special') return specialValue(field.message as MessagePlan, value, path);
  if (field.kind === 'message') return messageOf(field.message as MessagePlan, value, path);
  return scalarValue(field, value, path);
}

function specialValue(plan: MessagePlan, value: unknown, path: string): Message {
  return (plan.special as NonNullable<MessagePlan['special']>).encode(value, path, (json, at) => messageOf(plan.nested as MessagePlan, json, at));
}

function fieldValue(field: FieldPlan, value: unknown, path: string): unknown {
  if (field.map) {
    if (typeof value !== 'object' || Array.isArray(value)) return invalid(path, 'an object', value);
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value as object)) if (v !== null) out[k] = elementValue(field, v, `${path}[${k}]`);
    return out;
  }
  if (field.repeated) {
    if (!Array.isArray(value)) return invalid(path, 'a list', value);
    return value.map((v, i) => elementValue(field, v, `${path}[${i}]`));
  }
  return elementValue(field, value, path);
}

/** The plain message of a JSON object; a value of the wrong type is a 400 naming its path. */
export function messageOf(plan: MessagePlan, json: unknown, path: string): Message {
  if (plan.special !== undefined) return specialValue(plan, json, path);
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return invalid(path, 'an object', json);
  const object = json as Record<string, unknown>;
  const out: Message = {};
  for (const field of plan.fields) {
    if (field.kind === 'inline') {
      const inner = messageOf(field.message as MessagePlan, object, path);
      if (Object.keys(inner).length > 0) out[field.protoName] = inner;
      continue;
    }
    const value = object[field.jsonName];
    if (value === undefined || value === null) continue;
    out[field.protoName] = fieldValue(field, value, path === '' ? field.jsonName : `${path}.${field.jsonName}`);
  }
  return out;
}
