// Kubernetes' types whose JSON form is not their message's fields: Time, MicroTime, Duration,
// Quantity, IntOrString, RawExtension, FieldsV1, apiextensions' JSON and JSONSchemaProps unions,
// and the named string lists (Verbs, ExtraValue). Each converts one value each way, as the Go
// types' Marshal/Unmarshal and MarshalJSON/UnmarshalJSON do.
import { badRequest, internalError } from '../../registry/errors/status-error.ts';
import { formatGoDuration, formatMicroTime, formatTime, parseGoDuration, parseRfc3339 } from './go-time.ts';
import { embeddedJsonDepthMax, timeCacheEntriesMax } from './limits.ts';
import { hasProtobufMagic } from './media-types.ts';

/**
 * A message in protobufjs' plain form: proto field name to value. A bytes field holds a
 * Uint8Array, or (written by these codecs) a string that stands for its UTF-8 bytes.
 */
export type Message = Record<string, unknown>;

/**
 * How one special type converts. `encode` makes its plain message (a nested schema through
 * `encodeNested`); `decode` reads the plain message the reader made (only the fields the wire
 * carried; a nested schema already JSON) and answers undefined for what Go's JSON writes as null.
 */
export interface SpecialCodec {
  encode(json: unknown, path: string, encodeNested: (json: unknown, path: string) => Message): Message;
  decode(message: Message): unknown;
}

const hasOwn = (message: object, name: string): boolean => Object.prototype.hasOwnProperty.call(message, name);

/** A decoded integer field (a number, or a Long for int64) as a number; absent is 0. */
function numberOf(message: Message, name: string): number {
  if (!hasOwn(message, name)) return 0;
  const value = message[name];
  if (typeof value === 'number') return value;
  if (typeof value === 'object' && value !== null && 'toNumber' in value) return (value as { toNumber(): number }).toNumber();
  return Number(value);
}

function invalid(path: string, what: string, value: unknown): never {
  throw internalError(`unable to encode ${path} as Protobuf: ${what}: ${JSON.stringify(value)?.slice(0, 100)}`);
}

/**
 * metav1.Time and MicroTime: a Timestamp{seconds, nanos}. An empty message is Go's zero time
 * (JSON null, so absent); Time keeps whole seconds only, as its Unmarshal does.
 */
function timeCodec(format: (seconds: number, nanos: number) => string | undefined, wholeSeconds: boolean): SpecialCodec {
  // The objects of a list share many timestamps: each is parsed and formatted once (cached values are never changed).
  const encoded = new Map<string, Message>();
  const decoded = new Map<number, string>();
  return {
    encode(json, path) {
      if (typeof json !== 'string') return invalid(path, 'not an RFC 3339 time', json);
      let message = encoded.get(json);
      if (message === undefined) {
        message = parseRfc3339(json) ?? invalid(path, 'not an RFC 3339 time', json);
        if (encoded.size >= timeCacheEntriesMax) encoded.clear();
        encoded.set(json, message);
      }
      return message;
    },
    decode(message) {
      if (!hasOwn(message, 'seconds') && !hasOwn(message, 'nanos')) return undefined;
      const seconds = numberOf(message, 'seconds');
      let text = wholeSeconds ? decoded.get(seconds) : undefined;
      if (text === undefined) {
        text = format(seconds, numberOf(message, 'nanos'));
        if (text === undefined) throw badRequest(`time ${seconds}s since the epoch is out of range`);
        if (wholeSeconds) {
          if (decoded.size >= timeCacheEntriesMax) decoded.clear();
          decoded.set(seconds, text);
        }
      }
      return text;
    },
  };
}

/** Parses embedded JSON bytes (bounded in depth); bytes that are not JSON are the client's 400. */
function parseJsonBytes(raw: Uint8Array): unknown {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength).toString('utf8'));
  } catch {
    throw badRequest('embedded object is not valid JSON');
  }
  checkDepth(value, 0);
  return value;
}

function checkDepth(value: unknown, depth: number): void {
  if (typeof value !== 'object' || value === null) return;
  if (depth >= embeddedJsonDepthMax) throw badRequest(`embedded JSON nested deeper than ${embeddedJsonDepthMax}`);
  for (const v of Object.values(value)) checkDepth(v, depth + 1);
}

/** A message whose one bytes field holds JSON (RawExtension, FieldsV1, apiextensions JSON); empty bytes are null. */
function rawJsonCodec(field: string, embedded?: (raw: Uint8Array) => unknown): SpecialCodec {
  return {
    encode: (json) => ({ [field]: JSON.stringify(json ?? null) }), // the JSON text is the bytes
    decode(message) {
      const raw = message[field] as Uint8Array | undefined;
      if (!hasOwn(message, field) || raw === undefined || raw.length === 0) return undefined;
      return embedded?.(raw) ?? parseJsonBytes(raw);
    },
  };
}

const stringList: SpecialCodec = {
  encode: (json, path) => (Array.isArray(json) && json.every((s) => typeof s === 'string') ? { items: json } : invalid(path, 'not a list of strings', json)),
  decode: (message) => (message.items as unknown[] | undefined) ?? [],
};

/** How a RawExtension whose raw begins with `k8s\0` decodes (the envelope decoder, set once at load). */
let decodeEmbeddedProtobuf: ((raw: Uint8Array) => unknown) | undefined;

/** Lets the envelope decoder handle RawExtensions that carry a Protobuf object (called once at load). */
export function setEmbeddedProtobufDecoder(decode: (raw: Uint8Array) => unknown): void {
  decodeEmbeddedProtobuf = decode;
}

const apiextensions = 'k8s.io.apiextensions_apiserver.pkg.apis.apiextensions';

/** apiextensions' unions: a JSONSchemaProps or a bool / a list of schemas / a list of strings. */
function schemaUnions(version: string): Record<string, SpecialCodec> {
  const p = `${apiextensions}.${version}`;
  return {
    [`${p}.JSON`]: rawJsonCodec('raw'),
    [`${p}.JSONSchemaPropsOrBool`]: {
      encode: (json, path, enc) => (typeof json === 'boolean' ? { allows: json } : { allows: true, schema: enc(json, path) }),
      decode: (m) => (hasOwn(m, 'schema') ? m.schema : m.allows === true),
    },
    [`${p}.JSONSchemaPropsOrArray`]: {
      encode: (json, path, enc) => (Array.isArray(json) ? { jSONSchemas: json.map((s, i) => enc(s, `${path}[${i}]`)) } : { schema: enc(json, path) }),
      decode: (m) => (hasOwn(m, 'schema') ? m.schema : ((m.jSONSchemas as unknown[] | undefined) ?? [])),
    },
    [`${p}.JSONSchemaPropsOrStringArray`]: {
      encode: (json, path, enc) => (Array.isArray(json) ? { property: json.map(String) } : { schema: enc(json, path) }),
      decode: (m) => (hasOwn(m, 'schema') ? m.schema : ((m.property as unknown[] | undefined) ?? [])),
    },
  };
}

const meta = 'k8s.io.apimachinery.pkg.apis.meta.v1';

/** The special codecs by message full name (no leading dot). */
export const specialCodecs: ReadonlyMap<string, SpecialCodec> = new Map(Object.entries({
  [`${meta}.Time`]: timeCodec((seconds) => formatTime(seconds), true),
  [`${meta}.MicroTime`]: timeCodec(formatMicroTime, false),
  [`${meta}.Duration`]: {
    encode: (json, path) => ({ duration: (typeof json === 'string' ? parseGoDuration(json) : undefined) ?? invalid(path, 'not a duration', json) }),
    decode: (m) => formatGoDuration(numberOf(m, 'duration')),
  },
  [`${meta}.FieldsV1`]: rawJsonCodec('Raw'),
  [`${meta}.Verbs`]: stringList,
  'k8s.io.apimachinery.pkg.runtime.RawExtension': rawJsonCodec('raw', (raw) => (hasProtobufMagic(raw) ? decodeEmbeddedProtobuf?.(raw) : undefined)),
  // Go writes a Quantity as its canonical string; a zero Quantity (no string) is "0".
  'k8s.io.apimachinery.pkg.api.resource.Quantity': {
    encode: (json, path) => (typeof json === 'string' ? { string: json } : typeof json === 'number' && Number.isFinite(json) ? { string: String(json) } : invalid(path, 'not a quantity', json)),
    decode: (m) => (hasOwn(m, 'string') ? m.string : '0'),
  },
  // type 0 is an int (intVal), 1 a string (strVal), as intstr.IntOrString's Type says.
  'k8s.io.apimachinery.pkg.util.intstr.IntOrString': {
    encode(json, path) {
      if (typeof json === 'number' && Number.isInteger(json)) return { type: 0, intVal: json };
      if (typeof json === 'string') return { type: 1, strVal: json };
      return invalid(path, 'not an integer or string', json);
    },
    decode: (m) => (numberOf(m, 'type') === 1 ? (hasOwn(m, 'strVal') ? m.strVal : '') : numberOf(m, 'intVal')),
  },
  'k8s.io.api.authentication.v1.ExtraValue': stringList,
  'k8s.io.api.authentication.v1beta1.ExtraValue': stringList,
  'k8s.io.api.authorization.v1.ExtraValue': stringList,
  'k8s.io.api.authorization.v1beta1.ExtraValue': stringList,
  'k8s.io.api.certificates.v1.ExtraValue': stringList,
  'k8s.io.api.certificates.v1beta1.ExtraValue': stringList,
  ...schemaUnions('v1'),
  ...schemaUnions('v1beta1'),
} satisfies Record<string, SpecialCodec>));
