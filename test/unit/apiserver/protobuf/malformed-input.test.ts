// Bad Protobuf bodies are the client's error: a 400 (415 for a kind without a message), never a
// 500 or another exception, and bounded; as kube-apiserver's protobuf Serializer answers them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { StatusError } from '../../../../internal/registry/errors/status-error.ts';
import { decodeProtobuf, encodeProtobuf } from '../../../../internal/apiserver/protobuf/index.ts';
import { referenceBody } from './proto-reference.ts';

type Json = Record<string, unknown>;

const deployment: Json = {
  apiVersion: 'apps/v1', kind: 'Deployment',
  metadata: { name: 'd', namespace: 'default', labels: { app: 'a' }, creationTimestamp: '2026-11-26T10:00:00Z', managedFields: [{ manager: 'm', operation: 'Update', fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': {} } }] },
  spec: {
    replicas: 3, selector: { matchLabels: { app: 'a' } }, strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: 1 } },
    template: { metadata: { labels: { app: 'a' } }, spec: { containers: [{ name: 'c', image: 'i', resources: { limits: { cpu: '1' } }, env: [{ name: 'X', value: 'y\u00e9' }] }] } },
  },
};

/** The outcome of decoding `body`: the object, or the HTTP status of the StatusError (anything else fails the test). */
function outcome(body: Uint8Array): Json | number {
  try {
    return decodeProtobuf(body);
  } catch (err) {
    assert.ok(err instanceof StatusError, `not a StatusError: ${(err as Error).stack}`);
    return err.code;
  }
}

function statusOf(body: Uint8Array): { code: number; message: string } {
  try {
    decodeProtobuf(body);
  } catch (err) {
    assert.ok(err instanceof StatusError, `not a StatusError: ${(err as Error).stack}`);
    return { code: err.code, message: err.message };
  }
  throw new Error('expected an error');
}

test('a body without the k8s\\0 magic is a 400 with kube\'s message', () => {
  assert.deepEqual(statusOf(Buffer.from('{"kind":"Pod"}')), { code: 400, message: 'provided data does not appear to be a protobuf message, expected prefix [107 56 115 0]' });
  assert.equal(statusOf(Buffer.alloc(0)).code, 400);
  assert.equal(statusOf(Buffer.from('k8s\u0000', 'latin1')).code, 400);
});

test('every truncation of a valid body is a 400 or, where the cut leaves valid Protobuf, an object; never another error', () => {
  const body = encodeProtobuf(deployment);
  let refused = 0;
  for (let length = 0; length < body.length; length++) {
    const result = outcome(body.subarray(0, length));
    if (typeof result === 'number') {
      assert.equal(result, 400, `truncated to ${length} bytes`);
      refused++;
    }
  }
  // Only cuts inside the trailing empty contentEncoding/contentType fields leave a valid envelope.
  assert.ok(refused >= body.length - 4, `${refused} of ${body.length} truncations refused`);
});

test('random bytes after the magic are a 400 or 415, never another error', () => {
  let seed = 42;
  const random = (): number => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed;
  };
  for (let round = 0; round < 3000; round++) {
    const bytes = Buffer.alloc(4 + (random() % 200));
    Buffer.from('k8s\u0000', 'latin1').copy(bytes);
    for (let i = 4; i < bytes.length; i++) bytes[i] = random() % 256;
    const result = outcome(bytes);
    if (typeof result === 'number') assert.ok(result === 400 || result === 415, `status ${result}`);
  }
});

test('flipped bytes in a valid body are a 400 or an object, never another error', () => {
  const body = encodeProtobuf(deployment);
  for (let i = 4; i < body.length; i++) {
    for (const value of [0x00, 0x7f, 0x80, 0xff]) {
      const changed = Buffer.from(body);
      changed[i] = value;
      const result = outcome(changed);
      if (typeof result === 'number') assert.ok(result === 400 || result === 415, `byte ${i} = ${value}: status ${result}`);
    }
  }
});

test('a known field with the wrong wire type is a 400, as Go\'s Unmarshal refuses it', () => {
  // ConfigMap.metadata (field 1, a message) sent as a varint.
  assert.equal(statusOf(envelopeOf('v1', 'ConfigMap', Buffer.from([0x08, 0x01]))).code, 400);
  // ObjectMeta.name (field 1, a string) sent as a varint.
  assert.equal(statusOf(envelopeOf('v1', 'ConfigMap', delimited(0x0a, Buffer.from([0x08, 0x01])))).code, 400);
});

test('fields a message does not declare are ignored, as kube-apiserver ignores them (fieldValidation does not apply to Protobuf)', () => {
  const metadata = delimited(0x0a, delimited(0x0a, Buffer.from('c')));
  const field99 = Buffer.from([0x98, 0x06, 0x01]); // field 99, varint 1
  const plain = decodeProtobuf(envelopeOf('v1', 'ConfigMap', metadata));
  assert.deepEqual(plain, { kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'c' } });
  assert.deepEqual(decodeProtobuf(envelopeOf('v1', 'ConfigMap', Buffer.concat([metadata, field99]))), plain);
  assert.deepEqual(decodeProtobuf(envelopeOf('v1', 'ConfigMap', Buffer.concat([field99, metadata]))), plain);
});

test('an apiVersion/kind without a message is a 415; a missing kind or apiVersion a 400', () => {
  const custom = referenceBody('example.com/v1', 'Foo', 'k8s.io.api.core.v1.ConfigMap', { metadata: { name: 'c' } });
  assert.equal(statusOf(custom).code, 415);
  const table = referenceBody('meta.k8s.io/v1', 'Table', 'k8s.io.api.core.v1.ConfigMap', {});
  assert.equal(statusOf(table).code, 415);
  assert.equal(statusOf(referenceBody('v1', '', 'k8s.io.api.core.v1.ConfigMap', {})).code, 400);
  assert.equal(statusOf(referenceBody('', 'ConfigMap', 'k8s.io.api.core.v1.ConfigMap', {})).code, 400);
});

test('a raw in another content encoding is a 400', () => {
  const body = referenceBody('v1', 'ConfigMap', 'k8s.io.api.core.v1.ConfigMap', { metadata: { name: 'c' } });
  const gzip = Buffer.concat([body.subarray(0, body.length - 4), Buffer.from([0x1a, 0x04]), Buffer.from('gzip'), Buffer.from([0x22, 0x00])]);
  assert.equal(statusOf(gzip).code, 400);
});

test('an int64 past 2^53 is a 400: orch\'s JSON could not keep it exactly', () => {
  const body = referenceBody('v1', 'ConfigMap', 'k8s.io.api.core.v1.ConfigMap', { metadata: { name: 'c', generation: '9007199254740993' } });
  assert.equal(statusOf(body).code, 400);
});

test('messages nested past protobufjs\' depth limit are a 400, not a stack overflow', () => {
  // JSONSchemaProps.not (field 28) inside itself.
  const nest = (depth: number): Buffer => {
    let schema = Buffer.alloc(0);
    for (let i = 0; i < depth; i++) schema = Buffer.concat([Buffer.from([0xe2, 0x01]), varint(schema.length), schema]);
    return envelopeOf('apiextensions.k8s.io/v1', 'CustomResourceDefinition', crdWithSchema(schema));
  };
  assert.equal(typeof outcome(nest(10)), 'object');
  assert.equal(statusOf(nest(150)).code, 400);
});

function varint(value: number): Buffer {
  const bytes: number[] = [];
  let v = value;
  while (v > 0x7f) {
    bytes.push((v & 0x7f) | 0x80);
    v >>>= 7;
  }
  bytes.push(v);
  return Buffer.from(bytes);
}

function delimited(tag: number, content: Buffer): Buffer {
  return Buffer.concat([Buffer.from([tag]), varint(content.length), content]);
}

/** CustomResourceDefinition{spec{versions[{schema{openAPIV3Schema: schema}}]}}. */
function crdWithSchema(schema: Buffer): Buffer {
  const validation = delimited(0x0a, schema); // CustomResourceValidation.openAPIV3Schema = 1
  const version = delimited(0x22, validation); // CustomResourceDefinitionVersion.schema = 4
  const spec = delimited(0x3a, version); // CustomResourceDefinitionSpec.versions = 7
  return delimited(0x12, spec); // CustomResourceDefinition.spec = 2
}

/** `k8s\0` + Unknown{typeMeta{apiVersion, kind}, raw}, written byte by byte. */
function envelopeOf(apiVersion: string, kind: string, raw: Buffer): Buffer {
  const typeMeta = Buffer.concat([delimited(0x0a, Buffer.from(apiVersion)), delimited(0x12, Buffer.from(kind))]);
  return Buffer.concat([Buffer.from('k8s\u0000', 'latin1'), delimited(0x0a, typeMeta), delimited(0x12, raw), Buffer.from([0x1a, 0x00, 0x22, 0x00])]);
}
