// Protobuf on the wire for the in-process tests: raw requests and answers, and a watch's frames read back.
import assert from 'node:assert/strict';
import protobuf from 'protobufjs';
import { request } from 'undici';
import { decodeProtobuf, encodeProtobuf, type KubeObject } from '../../../internal/apiserver/protobuf/index.ts';
import { testToken, type TestServer } from './harness.ts';

/** Kubernetes' Protobuf media type. */
export const pb = 'application/vnd.kubernetes.protobuf';

/** An answer as bytes. */
export interface RawAnswer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: Buffer;
}

function dispatcher(s: TestServer): never {
  return (s.client as unknown as { agent: never }).agent;
}

/** Sends one request; a KubeObject body is sent in Protobuf unless `contentType` says otherwise. */
export async function call(
  s: TestServer, method: string, path: string, options: { body?: KubeObject | Buffer | string; contentType?: string; accept?: string; headers?: Record<string, string> } = {},
): Promise<RawAnswer> {
  const { body, accept } = options;
  const bytes = body === undefined ? undefined : Buffer.isBuffer(body) || typeof body === 'string' ? body : encodeProtobuf(body);
  const res = await request(`${s.baseUrl}${path}`, {
    method: method as 'GET',
    dispatcher: dispatcher(s),
    headers: {
      authorization: `Bearer ${testToken}`,
      ...(accept === undefined ? {} : { accept }),
      ...(bytes === undefined ? {} : { 'content-type': options.contentType ?? pb }),
      ...options.headers,
    },
    ...(bytes === undefined ? {} : { body: bytes }),
  });
  return { status: res.statusCode, headers: res.headers, body: Buffer.from(await res.body.arrayBuffer()) };
}

/** The object of a Protobuf answer, after checking its media type and magic. */
export function objectOf(answer: RawAnswer, contentType = pb): KubeObject {
  assert.equal(answer.headers['content-type'], contentType, answer.body.toString('latin1').slice(0, 300));
  assert.deepEqual([...answer.body.subarray(0, 4)], [0x6b, 0x38, 0x73, 0x00], 'k8s\\0');
  return decodeProtobuf(answer.body);
}

/** The JSON body of an answer. */
export function jsonOf(answer: RawAnswer): KubeObject {
  assert.equal(answer.headers['content-type'], 'application/json', answer.body.toString('utf8').slice(0, 300));
  return JSON.parse(answer.body.toString('utf8')) as KubeObject;
}

/** One event of a Protobuf watch, its object decoded. */
export interface WatchEvent {
  readonly type: string;
  readonly object: KubeObject;
}

/** Decodes a metav1.WatchEvent message: type (1), object (2, a RawExtension whose raw (1) is `k8s\0` + Unknown). */
export function decodeWatchEvent(bytes: Uint8Array): WatchEvent {
  const reader = protobuf.Reader.create(bytes);
  let type = '';
  let raw: Uint8Array | undefined;
  while (reader.pos < reader.len) {
    const tag = reader.uint32();
    if (tag >>> 3 === 1) type = reader.string();
    else if (tag >>> 3 === 2) {
      const inner = protobuf.Reader.create(reader.bytes());
      while (inner.pos < inner.len) {
        const innerTag = inner.uint32();
        if (innerTag >>> 3 === 1) raw = inner.bytes();
        else inner.skipType(innerTag & 7);
      }
    } else reader.skipType(tag & 7);
  }
  assert.ok(raw !== undefined, 'the event has an object');
  return { type, object: decodeProtobuf(raw) };
}

/** A Protobuf watch being read: each frame a 4-byte big-endian length, then a WatchEvent. */
export interface FrameReader {
  readonly contentType: string | undefined;
  /** The next `n` events (fewer when the stream ends first). */
  next(n: number): Promise<WatchEvent[]>;
  close(): void;
}

/** Opens a watch at `path` (its query included) asking `accept`. */
export async function openFrames(s: TestServer, path: string, accept = pb): Promise<FrameReader> {
  const controller = new AbortController();
  const res = await request(`${s.baseUrl}${path}`, { dispatcher: dispatcher(s), headers: { authorization: `Bearer ${testToken}`, accept }, signal: controller.signal });
  assert.equal(res.statusCode, 200);
  const iterator = res.body[Symbol.asyncIterator]();
  let buffer = Buffer.alloc(0);
  return {
    contentType: res.headers['content-type'] as string | undefined,
    async next(n: number) {
      const out: WatchEvent[] = [];
      while (out.length < n) {
        if (buffer.length >= 4 && buffer.length >= 4 + buffer.readUInt32BE(0)) {
          const length = buffer.readUInt32BE(0);
          out.push(decodeWatchEvent(buffer.subarray(4, 4 + length)));
          buffer = buffer.subarray(4 + length);
          continue;
        }
        const chunk = await iterator.next();
        if (chunk.done === true) break;
        buffer = Buffer.concat([buffer, Buffer.from(chunk.value as Uint8Array)]);
      }
      return out;
    },
    close: () => controller.abort(),
  };
}
