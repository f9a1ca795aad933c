// An independent reading of the vendored .proto files, as a client built from them would have:
// its own protobufjs root (not the codec's, nor its plans), to make and read bytes the codec
// under test must agree with.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import protobuf from 'protobufjs';

type Json = Record<string, unknown>;

const protoDirectory = fileURLToPath(new URL('../../../../proto/', import.meta.url));

function protoFiles(relative: string): string[] {
  return readdirSync(join(protoDirectory, relative), { withFileTypes: true }).flatMap((entry) => {
    const path = `${relative}/${entry.name}`;
    if (entry.isDirectory()) return protoFiles(path);
    return entry.name.endsWith('.proto') ? [path] : [];
  });
}

let root: protobuf.Root | undefined;

/** The message type `fullName` of a root loaded from proto/ for the test alone. */
export function referenceType(fullName: string): protobuf.Type {
  if (root === undefined) {
    root = new protobuf.Root();
    root.resolvePath = (_origin, target) => join(protoDirectory, target);
    root.loadSync(protoFiles('k8s.io'), { keepCase: true });
  }
  return root.lookupType(fullName);
}

const magic = Buffer.from('k8s\u0000', 'latin1');

/** The runtime.Unknown of a Protobuf body, read by the reference root. */
export function referenceEnvelope(body: Uint8Array): { typeMeta: { apiVersion?: string; kind?: string }; raw: Uint8Array; contentEncoding?: string; contentType?: string } {
  assert(Buffer.from(body.subarray(0, 4)).equals(magic), 'a Protobuf body begins with k8s\\0');
  return referenceType('k8s.io.apimachinery.pkg.runtime.Unknown').toObject(referenceType('k8s.io.apimachinery.pkg.runtime.Unknown').decode(body.subarray(4)), { longs: Number }) as never;
}

/** The `typeName` message inside a Protobuf body, as plain fields (proto names; only those on the wire; int64 as numbers). */
export function rawMessageOf(body: Uint8Array, typeName: string): Json {
  const type = referenceType(typeName);
  return type.toObject(type.decode(referenceEnvelope(body).raw), { longs: Number }) as Json;
}

/** A Protobuf body made by the reference root from a plain message (proto names), as a Go client's bytes would be. */
export function referenceBody(apiVersion: string, kind: string, typeName: string, plain: Json): Buffer {
  const type = referenceType(typeName);
  const raw = type.encode(type.fromObject(plain)).finish();
  const unknown = referenceType('k8s.io.apimachinery.pkg.runtime.Unknown');
  return Buffer.concat([magic, unknown.encode(unknown.fromObject({ typeMeta: { apiVersion, kind }, raw, contentEncoding: '', contentType: '' })).finish()]);
}

function assert(condition: boolean, message: string): asserts condition {
  if (!condition) throw new Error(message);
}
