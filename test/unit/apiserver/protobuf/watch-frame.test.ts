// A Protobuf watch stream's frames are what client-go's watch decoder reads: a 4-byte big-endian
// length, then a metav1.WatchEvent written raw (no magic, no Unknown), whose object is a
// RawExtension holding the object's full Protobuf body (magic and Unknown included).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeProtobuf, encodeProtobufWatchFrame, protobufMagic } from '../../../../internal/apiserver/protobuf/index.ts';
import { referenceType } from './proto-reference.ts';

type Json = Record<string, unknown>;

/** The WatchEvent of a frame, read by the reference root; asserts the length prefix covers exactly the rest. */
function eventOf(frame: Buffer): { type: string; raw: Buffer } {
  assert.equal(frame.readUInt32BE(0), frame.length - 4);
  const watchEvent = referenceType('k8s.io.apimachinery.pkg.apis.meta.v1.WatchEvent');
  const event = watchEvent.toObject(watchEvent.decode(frame.subarray(4))) as { type: string; object: { raw: Uint8Array } };
  return { type: event.type, raw: Buffer.from(event.object.raw) };
}

const pod: Json = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'default', resourceVersion: '7' }, spec: { containers: [{ name: 'c', image: 'i' }] } };

test('an ADDED frame: length, then WatchEvent{type, object.raw = the object\'s Protobuf body with its magic}', () => {
  const { type, raw } = eventOf(encodeProtobufWatchFrame('ADDED', pod));
  assert.equal(type, 'ADDED');
  assert.deepEqual(raw.subarray(0, 4), protobufMagic);
  assert.deepEqual(decodeProtobuf(raw), pod);
});

test('an ERROR frame carries a metav1.Status', () => {
  const status = { apiVersion: 'v1', kind: 'Status', metadata: {}, status: 'Failure', message: 'too old resource version: 1 (5)', reason: 'Expired', code: 410 };
  const { type, raw } = eventOf(encodeProtobufWatchFrame('ERROR', status));
  assert.equal(type, 'ERROR');
  assert.deepEqual(decodeProtobuf(raw), status);
});

test('a BOOKMARK frame carries the watched kind with only its resourceVersion (and annotations)', () => {
  const bookmark = { apiVersion: 'v1', kind: 'Pod', metadata: { resourceVersion: '12', annotations: { 'k8s.io/initial-events-end': 'true' } } };
  const { type, raw } = eventOf(encodeProtobufWatchFrame('BOOKMARK', bookmark));
  assert.equal(type, 'BOOKMARK');
  assert.deepEqual(decodeProtobuf(raw), bookmark);
});

test('a frame over 127 and over 16383 bytes keeps exact lengths at every level', () => {
  for (const size of [200, 20000, 3_000_000]) {
    const configMap = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'big' }, data: { value: 'x'.repeat(size) } };
    const { raw } = eventOf(encodeProtobufWatchFrame('MODIFIED', configMap));
    assert.deepEqual(decodeProtobuf(raw), configMap);
  }
});

test('frames of a stream follow each other and are read back one by one by their lengths', () => {
  const stream = Buffer.concat(['ADDED', 'MODIFIED', 'DELETED'].map((t) => encodeProtobufWatchFrame(t, pod)));
  const types: string[] = [];
  for (let at = 0; at < stream.length;) {
    const length = stream.readUInt32BE(at);
    types.push(eventOf(stream.subarray(at, at + 4 + length)).type);
    at += 4 + length;
  }
  assert.deepEqual(types, ['ADDED', 'MODIFIED', 'DELETED']);
});
