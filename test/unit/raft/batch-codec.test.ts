import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import * as protoLoader from '@grpc/proto-loader';
import { batchCodec } from '../../../raft/batch-codec.ts';
import { loadBatchType } from '../../../raft/raft-service.ts';
import { makeMessage } from '../../../raft/core/message.ts';
import { index, term } from '../../../raft/core/types.ts';
import type { Message } from '../../../raft/core/types.ts';
import { messageFromWire, messageToWire } from '../../../raft/wire.ts';
import type { WireBatch, WireMessage } from '../../../raft/wire.ts';

const codec = batchCodec(loadBatchType());

/** Stream's request codec as an earlier build had it: @grpc/proto-loader's, with entry types by name. */
function protoLoaderCodec(): { serialize(value: object): Buffer; deserialize(bytes: Buffer): WireBatch } {
  const protoPath = fileURLToPath(new URL('../../../proto/raft.proto', import.meta.url));
  const def = protoLoader.loadSync(protoPath, { keepCase: false, longs: Number, enums: String, defaults: true, oneofs: false });
  const stream = (def['orch.raft.v1.Raft'] as protoLoader.ServiceDefinition)['Stream']!;
  return { serialize: stream.requestSerialize, deserialize: (bytes) => stream.requestDeserialize(bytes) as WireBatch };
}

/** The wire form an earlier build sent: entry types by name. */
function earlierWire(m: Message): WireMessage {
  const wire = messageToWire(m);
  return { ...wire, entries: wire.entries.map((e) => ({ ...e, type: e.type === 1 ? 'ENTRY_TYPE_CONF_CHANGE' : 'ENTRY_TYPE_NORMAL' })) };
}

const largest = Number.MAX_SAFE_INTEGER;

/** Every field set to something other than its default somewhere, and every default somewhere. */
const messages: Message[] = [
  makeMessage({
    type: 'app', from: 'store-1', to: 'store-2', term: term(7), logTerm: term(6), index: index(41), commit: index(40),
    entries: [
      { term: term(7), index: index(42), type: 'normal', data: new Uint8Array(1100).fill(7) },
      { term: term(7), index: index(43), type: 'confChange', data: Uint8Array.of(1, 2, 3) },
      { term: term(7), index: index(44), type: 'normal', data: new Uint8Array(0) },
    ],
    leaderDurable: index(41),
  }),
  makeMessage({ type: 'appResp', from: 'store-2', to: 'store-1', term: term(7), index: index(44), context: Uint8Array.of(2) }),
  makeMessage({ type: 'appResp', from: 'b', to: 'a', term: term(3), index: index(9), reject: true, rejectHint: index(5), rejectHintTerm: term(2) }),
  makeMessage({ type: 'app', from: 'a', to: 'b', term: term(largest), logTerm: term(largest), index: index(largest), commit: index(largest), leaderDurable: index(largest), context: Uint8Array.of(1) }),
  makeMessage({ type: 'heartbeat', from: 'a', to: 'b', term: term(1), commit: index(3), context: new Uint8Array(16).fill(9) }),
  makeMessage({ type: 'preVote', from: 'c', to: 'a', term: term(4), logTerm: term(3), index: index(12) }),
  makeMessage({ type: 'readIndexResp', from: 'a', to: 'c', term: term(4), index: index(12), context: Uint8Array.of(5, 6) }),
  makeMessage({
    type: 'snap', from: 'a', to: 'b', term: term(2),
    snapshot: { metadata: { index: index(100), term: term(2), confState: { voters: ['a', 'b'], learners: ['c'], votersOutgoing: ['a'], learnersNext: ['d'], autoLeave: true } }, data: new Uint8Array(0) },
  }),
  makeMessage({ type: 'timeoutNow', from: '', to: '' }),
];

/** A message as the receiver compares it: bytes as plain Uint8Arrays. */
function comparable(m: Message): unknown {
  return {
    ...m,
    context: [...m.context],
    entries: m.entries.map((e) => ({ ...e, data: [...e.data] })),
    snapshot: m.snapshot === null ? null : { metadata: m.snapshot.metadata, data: [...m.snapshot.data] },
  };
}

test('a batch decodes to the messages encoded, every field and the largest safe integers included', () => {
  const decoded = codec.decode(codec.encode({ messages })).messages.map((w) => messageFromWire(w));
  assert.deepEqual(decoded.map(comparable), messages.map(comparable));
});

test('bytes fields decode as Uint8Arrays, empty ones too (the encoder leaves those out)', () => {
  const [decoded] = codec.decode(codec.encode({ messages: [messages[0]!] })).messages.map((w) => messageFromWire(w));
  assert.ok(decoded!.context instanceof Uint8Array && decoded!.context.byteLength === 0);
  for (const e of decoded!.entries) assert.ok(e.data instanceof Uint8Array, `entry ${e.index}`);
  assert.equal(decoded!.entries[2]!.data.byteLength, 0);
});

test('an empty batch round-trips', () => {
  assert.deepEqual(codec.decode(codec.encode({ messages: [] })).messages, []);
});

test('a peer of an earlier build (proto-loader codec) reads the batches encoded here', () => {
  const earlier = protoLoaderCodec();
  const read = earlier.deserialize(codec.encode({ messages })).messages.map((w) => messageFromWire(w));
  assert.deepEqual(read.map(comparable), messages.map(comparable));
});

test('the batches a peer of an earlier build sends decode here', () => {
  const earlier = protoLoaderCodec();
  const sent = earlier.serialize({ messages: messages.map(earlierWire) });
  const read = codec.decode(sent).messages.map((w) => messageFromWire(w));
  assert.deepEqual(read.map(comparable), messages.map(comparable));
});

test('bytes that are not a batch fail to decode (grpc-js then ends the stream)', () => {
  assert.throws(() => codec.decode(Buffer.from([0x0a, 0xff, 0xff, 0xff, 0xff, 0x0f])));
});
