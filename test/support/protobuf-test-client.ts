// A Kubernetes Protobuf client for tests and the benchmark, built from the vendored .proto files
// (proto/k8s.io/**) with protobufjs and nothing of the server's codec, so that the server is
// checked against the wire format itself. Messages are written with the proto field names, as a
// Go client fills its structs; the helpers below write the zero values Go's generated code sends
// for fields that are not pointers (empty strings, 0, false, an empty Time).
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import protobuf from 'protobufjs';
import { Agent, request } from 'undici';

/** Kubernetes' Protobuf media type, as client-go sends and asks for it. */
export const protobufMediaType = 'application/vnd.kubernetes.protobuf';

/** The Accept header of a client-go client whose content type is Protobuf (rest.NewRequest: the type, then `*\/*`). */
export const clientGoAccept = `${protobufMediaType}, */*`;

/** The media type of a Protobuf watch stream's answer. */
export const protobufWatchMediaType = `${protobufMediaType};stream=watch`;

/** `k8s\0`, the 4 bytes before the runtime.Unknown of every Protobuf body (not of a watch frame). */
export const envelopeMagic: Buffer = Buffer.from([0x6b, 0x38, 0x73, 0x00]);

/** A message as protobufjs takes and gives it: proto field names, int64 as numbers, bytes as Buffers. */
export type ProtoMessage = Record<string, unknown>;

/** runtime.TypeMeta of an envelope (apiVersion is field 1 here, unlike metav1.TypeMeta). */
export interface EnvelopeTypeMeta {
  readonly apiVersion: string;
  readonly kind: string;
}

/** runtime.Unknown, the message after the magic. */
export interface Unknown {
  readonly typeMeta: EnvelopeTypeMeta;
  readonly raw: Buffer;
  readonly contentEncoding: string;
  readonly contentType: string;
}

/** An envelope whose raw bytes were decoded as the message its typeMeta names. */
export interface DecodedObject {
  readonly typeMeta: EnvelopeTypeMeta;
  readonly unknown: Unknown;
  readonly message: ProtoMessage;
}

const protoDirectory = fileURLToPath(new URL('../../proto/', import.meta.url));
let root: protobuf.Root | undefined;

function generatedProtoFiles(relative: string): string[] {
  return readdirSync(join(protoDirectory, relative), { withFileTypes: true }).flatMap((entry) => {
    const path = `${relative}/${entry.name}`;
    if (entry.isDirectory()) return generatedProtoFiles(path);
    return entry.name === 'generated.proto' ? [join(protoDirectory, path)] : [];
  });
}

/** Every message of proto/k8s.io/**, loaded once (field names as the files spell them). */
export function kubernetesTypes(): protobuf.Root {
  if (root !== undefined) return root;
  const loaded = new protobuf.Root();
  loaded.resolvePath = (_origin, target) => (target.startsWith('/') ? target : join(protoDirectory, target));
  loaded.loadSync(generatedProtoFiles('k8s.io'), { keepCase: true });
  loaded.resolveAll();
  root = loaded;
  return root;
}

/** The message type `fullName` (`k8s.io.api.core.v1.Pod`); throws when the files have none. */
export function messageType(fullName: string): protobuf.Type {
  const found = kubernetesTypes().lookup(fullName);
  assert.ok(found instanceof protobuf.Type, `no message ${fullName} in proto/`);
  return found;
}

/** Kinds whose message is metav1's whatever group version names them (client-go sends `apps/v1` DeleteOptions). */
const metaKinds = ['Status', 'WatchEvent', 'Table', 'PartialObjectMetadata', 'PartialObjectMetadataList', 'DeleteOptions', 'CreateOptions', 'UpdateOptions', 'PatchOptions', 'GetOptions', 'ListOptions', 'APIResourceList', 'APIGroupList', 'APIGroup', 'APIVersions'];

/** Where a kind's message lives: `k8s.io.api.<first label of the group>.<version>`, metav1 for meta kinds. */
export function messageTypeName(typeMeta: EnvelopeTypeMeta): string {
  const [group, version] = typeMeta.apiVersion.includes('/') ? typeMeta.apiVersion.split('/') as [string, string] : ['', typeMeta.apiVersion];
  if (group === 'meta.k8s.io' || metaKinds.includes(typeMeta.kind)) return `k8s.io.apimachinery.pkg.apis.meta.v1.${typeMeta.kind}`;
  const directory = group === '' ? 'core' : group.split('.')[0];
  return `k8s.io.api.${directory}.${version}.${typeMeta.kind}`;
}

/** Fails on a key the message type does not have: protobufjs would drop it silently. */
function assertKnownFields(type: protobuf.Type, message: ProtoMessage, path: string): void {
  for (const [key, value] of Object.entries(message)) {
    const field = type.fields[key];
    assert.ok(field !== undefined, `${path}.${key}: ${type.fullName} has no field ${key}`);
    const child = field.resolve().resolvedType;
    if (!(child instanceof protobuf.Type) || value === null || value === undefined) continue;
    if (field.map) Object.entries(value as ProtoMessage).forEach(([k, m]) => assertKnownFields(child, m as ProtoMessage, `${path}.${key}[${k}]`));
    else if (field.repeated) (value as ProtoMessage[]).forEach((m, i) => assertKnownFields(child, m, `${path}.${key}[${i}]`));
    else assertKnownFields(child, value as ProtoMessage, `${path}.${key}`);
  }
}

/** The wire bytes of `message` as `typeName`; every key must be a field of it. */
export function encodeMessage(typeName: string, message: ProtoMessage): Buffer {
  const type = messageType(typeName);
  assertKnownFields(type, message, typeName);
  return Buffer.from(type.encode(type.fromObject(message)).finish());
}

/** `bytes` decoded as `typeName`: only the fields on the wire, int64 as numbers, bytes as Buffers. */
export function decodeMessage(typeName: string, bytes: Uint8Array): ProtoMessage {
  const type = messageType(typeName);
  return type.toObject(type.decode(bytes), { longs: Number, defaults: false }) as ProtoMessage;
}

/** A Protobuf body: magic + runtime.Unknown{typeMeta, raw, contentEncoding "", contentType ""}, as client-go writes it. */
export function encodeEnvelope(typeMeta: EnvelopeTypeMeta, message: ProtoMessage, typeName = messageTypeName(typeMeta)): Buffer {
  const unknown = { typeMeta: { apiVersion: typeMeta.apiVersion, kind: typeMeta.kind }, raw: encodeMessage(typeName, message), contentEncoding: '', contentType: '' };
  return Buffer.concat([envelopeMagic, encodeMessage('k8s.io.apimachinery.pkg.runtime.Unknown', unknown)]);
}

/** The runtime.Unknown of a Protobuf body; throws when it does not begin with the magic. */
export function decodeEnvelope(body: Uint8Array): Unknown {
  const bytes = Buffer.from(body);
  assert.ok(bytes.subarray(0, 4).equals(envelopeMagic), `the body begins with k8s\\0, not ${JSON.stringify(bytes.subarray(0, 16).toString('latin1'))}`);
  const decoded = decodeMessage('k8s.io.apimachinery.pkg.runtime.Unknown', bytes.subarray(4)) as Partial<{ typeMeta: Partial<EnvelopeTypeMeta>; raw: Uint8Array; contentEncoding: string; contentType: string }>;
  return {
    typeMeta: { apiVersion: decoded.typeMeta?.apiVersion ?? '', kind: decoded.typeMeta?.kind ?? '' },
    raw: Buffer.from(decoded.raw ?? []),
    contentEncoding: decoded.contentEncoding ?? '',
    contentType: decoded.contentType ?? '',
  };
}

/** A Protobuf body decoded: the envelope, then its raw bytes as the kind the envelope names. */
export function decodeObject(body: Uint8Array): DecodedObject {
  const unknown = decodeEnvelope(body);
  assert.equal(unknown.contentEncoding, '', 'raw is not compressed');
  assert.ok(unknown.contentType === '' || unknown.contentType === protobufMediaType, `raw is Protobuf, not ${unknown.contentType}`);
  return { typeMeta: unknown.typeMeta, unknown, message: decodeMessage(messageTypeName(unknown.typeMeta), unknown.raw) };
}

/** One event of a Protobuf watch: metav1.WatchEvent whose object.raw is an envelope. */
export interface ProtobufWatchEvent {
  readonly type: string;
  readonly object: DecodedObject;
}

/** Decodes one frame's bytes (without its length) as client-go does: raw WatchEvent, then the embedded envelope. */
export function decodeWatchEvent(frame: Uint8Array): ProtobufWatchEvent {
  const event = decodeMessage('k8s.io.apimachinery.pkg.apis.meta.v1.WatchEvent', frame) as { type?: string; object?: { raw?: Uint8Array } };
  assert.ok(event.object?.raw !== undefined, `the ${event.type ?? '?'} event carries an object`);
  return { type: event.type ?? '', object: decodeObject(event.object.raw) };
}

/** Frames bytes received in any chunks: each frame a 4-byte big-endian length, then that many bytes. */
export class LengthDelimitedFrames {
  private buffered = Buffer.alloc(0);

  /** Takes a chunk; returns the frames it completed, in order. */
  push(chunk: Uint8Array): Buffer[] {
    this.buffered = Buffer.concat([this.buffered, chunk]);
    const frames: Buffer[] = [];
    while (this.buffered.length >= 4) {
      const length = this.buffered.readUInt32BE(0);
      if (this.buffered.length < 4 + length) break;
      frames.push(this.buffered.subarray(4, 4 + length));
      this.buffered = this.buffered.subarray(4 + length);
    }
    return frames;
  }

  /** Bytes of a frame not yet complete. */
  get pending(): number {
    return this.buffered.length;
  }
}

/** Go's zero of metav1.ObjectMeta's value fields, with `fields` over it: what a Go client's ObjectMeta sends. */
export function goObjectMeta(fields: ProtoMessage): ProtoMessage {
  return { name: '', generateName: '', namespace: '', selfLink: '', uid: '', resourceVersion: '', generation: 0, creationTimestamp: {}, ...fields };
}

/** A container as Go's struct sends it: every value field, zero where not set. */
export function goContainer(fields: ProtoMessage): ProtoMessage {
  return { name: '', image: '', workingDir: '', terminationMessagePath: '', imagePullPolicy: '', stdin: false, stdinOnce: false, tty: false, terminationMessagePolicy: '', ...fields };
}

/** A pod spec as Go's struct sends it: its value fields zero where not set. */
export function goPodSpec(fields: ProtoMessage): ProtoMessage {
  return { restartPolicy: '', dnsPolicy: '', serviceAccountName: '', serviceAccount: '', nodeName: '', hostNetwork: false, hostPID: false, hostIPC: false, hostname: '', subdomain: '', schedulerName: '', priorityClassName: '', ...fields };
}

/** resource.Quantity on the wire: its string. */
export const quantity = (value: string): ProtoMessage => ({ string: value });

/** intstr.IntOrString as Go writes it: all three fields, whichever is set. */
export const intOrString = (value: number | string): ProtoMessage =>
  typeof value === 'number' ? { type: 0, intVal: value, strVal: '' } : { type: 1, intVal: 0, strVal: value };

/** metav1.Time of an RFC 3339 instant: whole seconds, nanos 0 (Go's ProtoTime drops them). */
export function protoTime(rfc3339: string): ProtoMessage {
  const ms = Date.parse(rfc3339);
  assert.ok(Number.isFinite(ms), rfc3339);
  return { seconds: Math.floor(ms / 1000), nanos: 0 };
}

/** metav1.MicroTime: seconds and nanoseconds. */
export const protoMicroTime = (seconds: number, nanos: number): ProtoMessage => ({ seconds, nanos });

/** One answer: status, headers, raw body bytes. */
export interface ProtobufAnswer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly contentType: string;
  readonly body: Buffer;
}

/** What a request sends: a message in an envelope, or bytes/text of a given content type. */
export interface ProtobufRequest {
  /** A message sent in Protobuf (content-type application/vnd.kubernetes.protobuf). */
  readonly object?: { readonly typeMeta: EnvelopeTypeMeta; readonly message: ProtoMessage };
  readonly body?: Buffer | string;
  readonly contentType?: string;
  /** Default: client-go's, Protobuf then anything. */
  readonly accept?: string;
}

/** An open Protobuf watch: events arrive as frames are completed. */
export interface ProtobufWatch {
  readonly status: number;
  readonly contentType: string;
  readonly events: ProtobufWatchEvent[];
  /** Waits for the first not-yet-taken event matching `pred`, taking every event up to it; throws after `timeoutMs` or when the stream ends. */
  until(pred: (event: ProtobufWatchEvent) => boolean, timeoutMs?: number): Promise<ProtobufWatchEvent>;
  close(): void;
}

/** A Protobuf body for a failure message: a Status's message, or the kind and size. */
function describeProtobuf(body: Buffer): string {
  try {
    const decoded = decodeObject(body);
    return decoded.typeMeta.kind === 'Status' ? `Status ${JSON.stringify(decoded.message)}` : `${decoded.typeMeta.kind} of ${body.length} bytes`;
  } catch (error) {
    return `${body.length} bytes that do not decode: ${String(error)}`;
  }
}

/** An HTTPS client of one replica that sends and reads Protobuf; trusts the cluster CA, sends the token. */
export class ProtobufTestClient {
  private readonly agent: Agent;

  constructor(readonly baseUrl: string, caPem: string, private readonly token: string, options: { connections?: number; timeoutMs?: number } = {}) {
    this.agent = new Agent({
      connect: { ca: caPem },
      allowH2: false,
      ...(options.connections === undefined ? {} : { connections: options.connections }),
      ...(options.timeoutMs === undefined ? {} : { headersTimeout: options.timeoutMs, bodyTimeout: options.timeoutMs }),
    });
  }

  /** Sends one request and reads the whole body; never throws for an HTTP error status. */
  async send(method: string, path: string, req: ProtobufRequest = {}): Promise<ProtobufAnswer> {
    const body = req.object !== undefined ? encodeEnvelope(req.object.typeMeta, req.object.message) : req.body;
    const contentType = req.object !== undefined ? protobufMediaType : req.contentType ?? 'application/json';
    const res = await request(`${this.baseUrl}${path}`, {
      method: method as 'GET',
      dispatcher: this.agent,
      headers: { authorization: `Bearer ${this.token}`, accept: req.accept ?? clientGoAccept, ...(body === undefined ? {} : { 'content-type': contentType }) },
      ...(body === undefined ? {} : { body }),
    });
    const bytes = Buffer.from(await res.body.arrayBuffer());
    return { status: res.statusCode, headers: res.headers, contentType: String(res.headers['content-type'] ?? ''), body: bytes };
  }

  /** Sends one request and decodes a Protobuf answer; throws (with the body) unless the status is one of `expect`. */
  async call(method: string, path: string, req: ProtobufRequest, expect: readonly number[]): Promise<DecodedObject> {
    const answer = await this.send(method, path, req);
    const shown = answer.contentType.startsWith(protobufMediaType) ? describeProtobuf(answer.body) : answer.body.toString('utf8').slice(0, 400);
    assert.ok(expect.includes(answer.status), `${method} ${path}: ${answer.status} ${shown}`);
    assert.equal(answer.contentType, protobufMediaType, `${method} ${path}: ${shown}`);
    return decodeObject(answer.body);
  }

  /** Opens a watch (`path` including watch=1) asking for Protobuf as client-go does; the head is awaited, events stream in. */
  async watch(path: string, accept = clientGoAccept): Promise<ProtobufWatch> {
    const controller = new AbortController();
    const res = await request(`${this.baseUrl}${path}`, {
      dispatcher: this.agent,
      signal: controller.signal,
      bodyTimeout: 0,
      headers: { authorization: `Bearer ${this.token}`, accept },
    });
    const events: ProtobufWatchEvent[] = [];
    let taken = 0;
    let ended = false;
    let failure: unknown = null;
    const waker: { wake: (() => void) | null } = { wake: null };
    void (async () => {
      const frames = new LengthDelimitedFrames();
      try {
        for await (const chunk of res.body) {
          for (const frame of frames.push(chunk as Uint8Array)) events.push(decodeWatchEvent(frame));
          waker.wake?.();
        }
      } catch (error) {
        if (!controller.signal.aborted) failure = error;
      } finally {
        ended = true;
        waker.wake?.();
      }
    })();
    return {
      status: res.statusCode,
      contentType: String(res.headers['content-type'] ?? ''),
      events,
      async until(pred, timeoutMs = 15_000) {
        const deadline = Date.now() + timeoutMs;
        for (;;) {
          const found = events.findIndex((e, i) => i >= taken && pred(e));
          if (found >= 0) {
            taken = found + 1;
            return events[found] as ProtobufWatchEvent;
          }
          const seen = JSON.stringify(events.slice(taken).map((e) => [e.type, (e.object.message.metadata as { name?: string } | undefined)?.name]));
          if (ended) throw new Error(`the watch ended (${String(failure)}) while waiting; got ${seen}`);
          const left = deadline - Date.now();
          if (left <= 0) throw new Error(`no matching watch event in ${timeoutMs} ms; got ${seen}`);
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, Math.min(left, 250));
            waker.wake = () => {
              clearTimeout(timer);
              resolve();
            };
          });
          waker.wake = null;
        }
      },
      close: () => controller.abort(),
    };
  }

  async close(): Promise<void> {
    await this.agent.close();
  }
}
