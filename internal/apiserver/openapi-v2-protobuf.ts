import { stringify } from 'yaml';

/**
 * Encodes an OpenAPI v2 (Swagger) JSON document as the gnostic `openapi.v2.Document` protobuf
 * that kubectl asks for (`application/com.github.proto-openapi.spec.v2@v1.0+protobuf`). Only the
 * parts kubectl reads are encoded: info, definitions (schemas with vendor extensions) and paths
 * (operations with their query parameters and extensions).
 */

type Json = Record<string, unknown>;

/** A minimal protobuf writer: varints and length-delimited fields. */
class ProtoWriter {
  private readonly parts: Buffer[] = [];

  private varint(n: number): void {
    const bytes: number[] = [];
    let v = n;
    while (v > 0x7f) {
      bytes.push((v & 0x7f) | 0x80);
      v = Math.floor(v / 128);
    }
    bytes.push(v);
    this.parts.push(Buffer.from(bytes));
  }

  bytes(field: number, data: Buffer): this {
    this.varint((field << 3) | 2);
    this.varint(data.length);
    this.parts.push(data);
    return this;
  }

  string(field: number, value: unknown): this {
    return typeof value === 'string' && value !== '' ? this.bytes(field, Buffer.from(value, 'utf8')) : this;
  }

  bool(field: number, value: unknown): this {
    if (value !== true) return this;
    this.varint(field << 3);
    this.varint(1);
    return this;
  }

  message(field: number, build: (w: ProtoWriter) => void): this {
    const w = new ProtoWriter();
    build(w);
    return this.bytes(field, w.finish());
  }

  finish(): Buffer {
    return Buffer.concat(this.parts);
  }
}

function namedAny(w: ProtoWriter, field: number, name: string, value: unknown): void {
  w.message(field, (n) => n.string(1, name).message(2, (a) => a.string(2, stringify(value))));
}

function vendorExtensions(w: ProtoWriter, field: number, obj: Json): void {
  for (const [k, v] of Object.entries(obj)) if (k.startsWith('x-')) namedAny(w, field, k, v);
}

function schema(w: ProtoWriter, s: Json): void {
  w.string(1, s.$ref).string(2, s.format).string(4, s.description);
  for (const r of (s.required as string[] | undefined) ?? []) w.string(19, r);
  if (typeof s.additionalProperties === 'object' && s.additionalProperties !== null) w.message(21, (a) => a.message(1, (x) => schema(x, s.additionalProperties as Json)));
  if (typeof s.type === 'string') w.message(22, (t) => t.string(1, s.type));
  if (typeof s.items === 'object' && s.items !== null) w.message(23, (i) => i.message(1, (x) => schema(x, s.items as Json)));
  if (typeof s.properties === 'object' && s.properties !== null) {
    w.message(25, (p) => {
      for (const [name, sub] of Object.entries(s.properties as Record<string, Json>)) p.message(1, (n) => n.string(1, name).message(2, (x) => schema(x, sub)));
    });
  }
  vendorExtensions(w, 31, s);
}

function operation(w: ProtoWriter, op: Json): void {
  w.string(5, op.operationId);
  for (const p of (op.parameters as Json[] | undefined) ?? []) {
    // ParametersItem.parameter -> Parameter.non_body_parameter -> query (3) or path (4) sub-schema.
    const sub = p.in === 'path' ? 4 : 3;
    w.message(8, (item) => item.message(1, (param) => param.message(2, (nb) => nb.message(sub, (q) => q.bool(1, p.required).string(2, p.in).string(3, p.description).string(4, p.name).string(sub === 3 ? 6 : 5, p.type)))));
  }
  w.message(9, (r) => r.message(1, (code) => code.string(1, '200').message(2, (v) => v.message(1, (resp) => resp.string(1, 'OK')))));
  vendorExtensions(w, 13, op);
}

const methods: Record<string, number> = { get: 2, put: 3, post: 4, delete: 5, patch: 8 };

/** The protobuf encoding of a Swagger 2.0 JSON document. */
export function encodeOpenApiV2(doc: Json): Buffer {
  const w = new ProtoWriter();
  const info = (doc.info ?? {}) as Json;
  w.string(1, doc.swagger).message(2, (i) => i.string(1, info.title).string(2, info.version));
  w.message(8, (paths) => {
    for (const [path, item] of Object.entries((doc.paths ?? {}) as Record<string, Json>)) {
      paths.message(2, (named) =>
        named.string(1, path).message(2, (pi) => {
          for (const [method, field] of Object.entries(methods)) if (item[method]) pi.message(field, (o) => operation(o, item[method] as Json));
        }),
      );
    }
  });
  w.message(9, (defs) => {
    for (const [name, s] of Object.entries((doc.definitions ?? {}) as Record<string, Json>)) defs.message(1, (n) => n.string(1, name).message(2, (x) => schema(x, s)));
  });
  return w.finish();
}
