// JSON values to expression values by schema (SPEC "Expression-language type mapping"): integers
// are int, numbers double, `byte` strings bytes, dates timestamps, durations durations; objects
// with properties are maps keyed by escaped property names, so a missing optional field is absent
// (`has()` is false, access fails with "no such key").
import { celList, celMap, type CelInput, type CelValue } from '@bufbuild/cel';
import type { DeclType } from './decl-type.ts';
import { escapePropertyName } from './escaping.ts';
import { dynamicValue } from './json-values.ts';
import { markList } from './list-kinds.ts';
import { durationFromJson, timestampFromJson } from './wire-scalars.ts';

/**
 * The expression value of a JSON value of the given type. A value that does not fit its type
 * (schema validation runs first, so only through a bug or preserved unknown fields) is converted
 * dynamically rather than dropped.
 */
export function schemaValue(value: unknown, type: DeclType): CelValue {
  if (value === null || value === undefined) return null;
  switch (type.kind) {
    case 'object': return objectValue(value, type);
    case 'map': return mapValue(value, type.value);
    case 'list': return listValue(value, type);
    case 'int': return typeof value === 'number' && Number.isInteger(value) ? BigInt(value) : dynamicValue(value);
    case 'double': return typeof value === 'number' ? value : dynamicValue(value);
    case 'bool': return typeof value === 'boolean' ? value : dynamicValue(value);
    case 'int-or-string': return typeof value === 'number' && Number.isInteger(value) ? BigInt(value) : dynamicValue(value);
    case 'bytes': return typeof value === 'string' ? new Uint8Array(Buffer.from(value, 'base64')) : dynamicValue(value);
    case 'timestamp': return (typeof value === 'string' ? timestampFromJson(value) : undefined) ?? dynamicValue(value);
    case 'duration': return (typeof value === 'string' ? durationFromJson(value) : undefined) ?? dynamicValue(value);
    case 'string': return typeof value === 'string' ? value : dynamicValue(value);
    case 'dyn': return dynamicValue(value);
  }
}

function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function objectValue(value: unknown, type: Extract<DeclType, { kind: 'object' }>): CelValue {
  if (!isRecord(value)) return dynamicValue(value);
  const entries = new Map<string, CelInput>();
  const byName = new Map<string, { escaped: string; type: DeclType }>();
  for (const [escaped, field] of type.fields) byName.set(field.name, { escaped, type: field.type });
  for (const [name, v] of Object.entries(value)) {
    const field = byName.get(name);
    if (field !== undefined) {
      entries.set(field.escaped, schemaValue(v, field.type));
    } else if (type.preserveUnknown) {
      const escaped = escapePropertyName(name);
      if (escaped !== undefined) entries.set(escaped, dynamicValue(v));
    }
  }
  return celMap(entries);
}

function mapValue(value: unknown, valueType: DeclType): CelValue {
  if (!isRecord(value)) return dynamicValue(value);
  const entries = new Map<string, CelInput>();
  for (const [k, v] of Object.entries(value)) entries.set(k, schemaValue(v, valueType));
  return celMap(entries);
}

function listValue(value: unknown, type: Extract<DeclType, { kind: 'list' }>): CelValue {
  if (!Array.isArray(value)) return dynamicValue(value);
  const list = celList(value.map((v: unknown) => schemaValue(v, type.elem)));
  if (type.listType === 'set') return markList(list, { listType: 'set' });
  if (type.listType === 'map') return markList(list, { listType: 'map', keys: type.mapKeys });
  return list;
}
