// How each field of a message converts between orch's JSON form and protobufjs' form, computed
// once per message (and per JSON shape, for a struct Go inlines into its parent) from the loaded
// types, the OpenAPI document and the pointer table, then cached: no reflection per request.
import protobuf from 'protobufjs';
import { isGoPointerField } from './go-pointer-fields.ts';
import { type JsonShape, isRequiredOutsideDocument, jsonShapeOf, normalizedName } from './openapi-fields.ts';
import { type SpecialCodec, specialCodecs } from './special-codecs.ts';
import { varintBytes } from './wire-bytes.ts';

/** How a field's value is carried. */
export type FieldKind = 'string' | 'int32' | 'int64' | 'double' | 'bool' | 'bytes' | 'message' | 'special' | 'inline';

/** Protobuf wire types. */
const wireVarint = 0;
const wireFixed64 = 1;
const wireLengthDelimited = 2;

/** One field's conversion. */
export interface FieldPlan {
  readonly protoName: string;
  readonly fieldNumber: number;
  /** The wire type of one value (a map entry, a list element or the field itself); lists are written unpacked, as Go does. */
  readonly wireType: number;
  /** The field's tag (number << 3 | wire type) and its varint length. */
  readonly tag: number;
  readonly tagBytes: number;
  /** For a map: the tag of an entry's value (field 2 with the value's wire type); the key's is 0x0a. */
  readonly mapValueTag: number;
  /** The JSON name; for an inline struct, unused (its fields sit in the parent object). */
  readonly jsonName: string;
  readonly kind: FieldKind;
  readonly repeated: boolean;
  /** A map field: its values convert as `kind` says. */
  readonly map: boolean;
  /**
   * Whether the JSON form keeps a zero: a scalar Go pointer or a field Go's JSON writes even when
   * zero (required); a single struct (always); a list or map only when required (then `[]`/`{}`).
   */
  readonly keepZero: boolean;
  /** The plan of a message, special or inline field's type; undefined for a scalar. */
  readonly message: MessagePlan | undefined;
}

/** A message's conversion: its fields in declaration order (Go's struct order, which JSON output follows). */
export interface MessagePlan {
  readonly type: protobuf.Type;
  /** In declaration order (Go's struct order, which its JSON follows). */
  readonly fields: FieldPlan[];
  /** In field-number order, as Go's Marshal writes them. */
  readonly writeOrder: FieldPlan[];
  /** By field number, for reading. */
  readonly byNumber: ReadonlyMap<number, FieldPlan>;
  /** By JSON name and by proto name, for writing from the keys an object has (inline structs aside). */
  readonly byJsonName: ReadonlyMap<string, FieldPlan>;
  readonly byProtoName: ReadonlyMap<string, FieldPlan>;
  /** Whether a field is a struct Go inlines in the JSON (its fields are this object's keys). */
  hasInline: boolean;
  /** The lists and maps Go's JSON writes even when empty (required): `[]`/`{}` when the wire has no element. */
  readonly requiredCollections: FieldPlan[];
  /** Set when the type's JSON form is not its fields (special-codecs.ts). */
  readonly special: SpecialCodec | undefined;
  /** For a special union holding a schema (apiextensions' JSONSchemaPropsOr*): the plan of that schema. */
  nested: MessagePlan | undefined;
}

const plans = new Map<string, MessagePlan>();

/** The scalar types the Kubernetes messages use (others would be a new upstream feature: a bug here). */
const scalarKinds: Readonly<Record<string, FieldKind>> = { string: 'string', bool: 'bool', bytes: 'bytes', int32: 'int32', int64: 'int64', double: 'double' };

function scalarKind(type: string): FieldKind {
  const kind = scalarKinds[type];
  if (kind === undefined) throw new Error(`assert: unexpected proto scalar type ${type}`);
  return kind;
}

function wireTypeOf(kind: FieldKind): number {
  if (kind === 'bool' || kind === 'int32' || kind === 'int64') return wireVarint;
  return kind === 'double' ? wireFixed64 : wireLengthDelimited;
}


/** The JSON name of a proto field: its own, or the shape's property it matches but for case and punctuation. */
function jsonNameOf(protoName: string, shape: JsonShape | undefined): string | undefined {
  if (shape === undefined || shape.properties.has(protoName)) return protoName;
  const wanted = normalizedName(protoName);
  for (const p of shape.properties) if (normalizedName(p) === wanted) return p;
  return undefined;
}

/** Every FieldPlan is made here, its properties always in this order: one object shape, so the hot loops stay monomorphic. */
function makeFieldPlan(field: protobuf.Field, jsonName: string, kind: FieldKind, keepZero: boolean, message: MessagePlan | undefined): FieldPlan {
  const wireType = field.map ? wireLengthDelimited : wireTypeOf(kind);
  const tag = field.id * 8 + wireType;
  return {
    protoName: field.name, fieldNumber: field.id, wireType, tag, tagBytes: varintBytes(tag), mapValueTag: 2 * 8 + wireTypeOf(kind),
    jsonName, kind, repeated: field.repeated, map: field.map, keepZero, message,
  };
}

function fieldPlan(type: protobuf.Type, field: protobuf.Field, shape: JsonShape | undefined): FieldPlan {
  const resolved = field.resolvedType;
  if (resolved instanceof protobuf.Enum) throw new Error(`assert: enum field ${type.fullName}.${field.name}`);
  const jsonName = jsonNameOf(field.name, shape);
  const required = (jsonName !== undefined && shape?.required.has(jsonName) === true) || isRequiredOutsideDocument(type.fullName.slice(1), field.name);
  const special = resolved !== null && specialCodecs.has(resolved.fullName.slice(1));
  if (field.repeated || field.map) {
    const kind: FieldKind = resolved === null ? scalarKind(field.type) : special ? 'special' : 'message';
    return makeFieldPlan(field, jsonName ?? field.name, kind, required, resolved === null ? undefined : planOf(resolved));
  }
  if (resolved === null) return makeFieldPlan(field, jsonName ?? field.name, scalarKind(field.type), required || isGoPointerField(type.fullName.slice(1), field.name), undefined);
  if (special) return makeFieldPlan(field, jsonName ?? field.name, 'special', true, planOf(resolved));
  // A struct Go embeds inline (Volume's VolumeSource, Probe's ProbeHandler): its fields are the parent's JSON properties.
  if (jsonName === undefined) return makeFieldPlan(field, field.name, 'inline', true, planOf(resolved, shape));
  return makeFieldPlan(field, jsonName, 'message', true, planOf(resolved));
}

/** The plan of a message type; `inlinedInto` is the JSON shape of the parent a struct is inlined into. */
export function planOf(type: protobuf.Type, inlinedInto?: JsonShape): MessagePlan {
  const key = inlinedInto === undefined ? type.fullName : `${type.fullName}#${[...inlinedInto.properties].join(',')}`;
  const known = plans.get(key);
  if (known !== undefined) return known;
  const special = specialCodecs.get(type.fullName.slice(1));
  const plan: MessagePlan = { type, fields: [], writeOrder: [], byNumber: new Map(), byJsonName: new Map(), byProtoName: new Map(), hasInline: false, requiredCollections: [], special, nested: undefined };
  plans.set(key, plan); // before the fields: messages refer to themselves (JSONSchemaProps)
  // A special type's fields are its wire form only (its JSON is the codec's): proto names, nothing inlined.
  const shape = special !== undefined ? undefined : (inlinedInto ?? jsonShapeOf(type.fullName.slice(1)));
  for (const field of type.fieldsArray) plan.fields.push(fieldPlan(type, field, shape));
  plan.writeOrder.push(...[...plan.fields].sort((a, b) => a.fieldNumber - b.fieldNumber));
  for (const field of plan.fields) {
    (plan.byNumber as Map<number, FieldPlan>).set(field.fieldNumber, field);
    (plan.byProtoName as Map<string, FieldPlan>).set(field.protoName, field);
    if (field.kind === 'inline') plan.hasInline = true;
    else (plan.byJsonName as Map<string, FieldPlan>).set(field.jsonName, field);
    if ((field.repeated || field.map) && field.keepZero) plan.requiredCollections.push(field);
  }
  if (special !== undefined) {
    const schema = plan.fields.find((f) => f.protoName === 'schema');
    if (schema?.message !== undefined) plan.nested = schema.message;
  }
  return plan;
}
