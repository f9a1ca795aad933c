// The decoder reads bytes as Go's generated Unmarshal does, whatever order or form a client
// chose: fields in any order, a single field sent twice (last wins; a message merges), packed or
// unpacked lists, map entries without a value (Go's zero), negative integers sign-extended.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeProtobuf } from '../../../../internal/apiserver/protobuf/index.ts';

function varint(value: bigint): Buffer {
  const bytes: number[] = [];
  let v = BigInt.asUintN(64, value);
  while (v > 0x7fn) {
    bytes.push(Number(v & 0x7fn) | 0x80);
    v >>= 7n;
  }
  bytes.push(Number(v));
  return Buffer.from(bytes);
}

const field = (number: number, wireType: number): Buffer => varint(BigInt(number * 8 + wireType));
const delimited = (number: number, content: Buffer | string): Buffer => {
  const bytes = Buffer.from(content);
  return Buffer.concat([field(number, 2), varint(BigInt(bytes.length)), bytes]);
};
const integer = (number: number, value: number | bigint): Buffer => Buffer.concat([field(number, 0), varint(BigInt(value))]);

/** `k8s\0` + Unknown{typeMeta{apiVersion, kind}, raw}. */
function body(apiVersion: string, kind: string, raw: Buffer): Buffer {
  return Buffer.concat([Buffer.from('k8s\u0000', 'latin1'), delimited(1, Buffer.concat([delimited(1, apiVersion), delimited(2, kind)])), delimited(2, raw)]);
}

const podSpec = (...fields: Buffer[]): Buffer => delimited(2, Buffer.concat([delimited(2, Buffer.concat([delimited(1, 'c'), delimited(2, 'i')])), ...fields]));

test('fields in any order, a scalar sent twice: the last wins', () => {
  // ObjectMeta: namespace (3) before name (1), name twice.
  const metadata = delimited(1, Buffer.concat([delimited(3, 'ns'), delimited(1, 'first'), delimited(1, 'second')]));
  assert.deepEqual(decodeProtobuf(body('v1', 'ConfigMap', metadata)), { kind: 'ConfigMap', apiVersion: 'v1', metadata: { namespace: 'ns', name: 'second' } });
});

test('a message field sent twice merges', () => {
  const metadata = Buffer.concat([delimited(1, delimited(1, 'n')), delimited(1, delimited(3, 'ns'))]);
  assert.deepEqual(decodeProtobuf(body('v1', 'ConfigMap', metadata)).metadata, { name: 'n', namespace: 'ns' });
});

test('a list of integers packed or not', () => {
  // PodSecurityContext.supplementalGroups (4): one packed run, then one unpacked element.
  const packed = delimited(4, Buffer.concat([varint(1n), varint(2n)]));
  const securityContext = delimited(14, Buffer.concat([packed, integer(4, 3)]));
  const pod = decodeProtobuf(body('v1', 'Pod', podSpec(securityContext)));
  assert.deepEqual(((pod.spec as Record<string, unknown>).securityContext as Record<string, unknown>).supplementalGroups, [1, 2, 3]);
});

test('negative integers are sign-extended varints (int32 and int64)', () => {
  // PodSpec.priority (25, *int32) = -5; activeDeadlineSeconds (5, *int64) = -7.
  const pod = decodeProtobuf(body('v1', 'Pod', podSpec(integer(25, -5), integer(5, -7))));
  assert.equal((pod.spec as Record<string, unknown>).priority, -5);
  assert.equal((pod.spec as Record<string, unknown>).activeDeadlineSeconds, -7);
});

test('a map entry without a value is Go\'s zero of the value type', () => {
  // ConfigMap.data (2): {"k": ""} with the value left out; ResourceQuotaSpec.hard: a Quantity left out is "0".
  assert.deepEqual(decodeProtobuf(body('v1', 'ConfigMap', delimited(2, delimited(1, 'k')))).data, { k: '' });
  const quota = decodeProtobuf(body('v1', 'ResourceQuota', delimited(2, delimited(1, delimited(1, 'pods')))));
  assert.deepEqual(quota.spec, { hard: { pods: '0' } });
});

test('a field number no message declares is skipped whatever its wire type', () => {
  const unknown = Buffer.concat([integer(90, 7), delimited(91, 'x'), field(92, 1), Buffer.alloc(8), field(93, 5), Buffer.alloc(4)]);
  assert.deepEqual(decodeProtobuf(body('v1', 'ConfigMap', Buffer.concat([unknown, delimited(1, delimited(1, 'n'))]))).metadata, { name: 'n' });
});
