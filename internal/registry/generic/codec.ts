import type { KeyValue } from '../../storage/storage.ts';
import type { KObject } from '../schema/declaration.ts';
import { StatusError } from '../errors/status-error.ts';
import { objectBytesMax } from './limits.ts';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** The stored bytes of an object: JSON without metadata.resourceVersion. Rejects oversize objects. */
export function encodeObject(obj: KObject): Uint8Array {
  // A create's object has no resourceVersion: it is written as it is, without two copies.
  const bytes = encoder.encode(JSON.stringify(obj.metadata.resourceVersion === undefined ? obj : withoutResourceVersion(obj)));
  if (bytes.length > objectBytesMax) throw new StatusError(413, 'RequestEntityTooLarge', `Request entity too large: the object is ${bytes.length} bytes, more than the ${objectBytesMax} a stored object may have`);
  return bytes;
}

function withoutResourceVersion(obj: KObject): KObject {
  const { resourceVersion: _rv, ...metadata } = obj.metadata;
  return { ...obj, metadata };
}

/** The object of a stored key-value, with resourceVersion set from `revision` (default its modRevision). */
export function decodeKeyValue(kv: KeyValue, revision: number = kv.modRevision): KObject {
  const obj = JSON.parse(decoder.decode(kv.value)) as KObject;
  if (typeof obj !== 'object' || obj === null || typeof obj.metadata !== 'object') throw new Error(`assert: stored value of ${kv.key} is not an object`);
  obj.metadata.resourceVersion = String(revision);
  return obj;
}

/** A deep copy of a JSON object. */
export function cloneObject<T>(value: T): T {
  return structuredClone(value);
}
