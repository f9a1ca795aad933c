// The codec agrees with clients built from the same .proto files, not only with itself: bytes a
// Go client would write (made here by an independent protobufjs root, every non-pointer field
// written even when zero, as go-to-protobuf does) decode to the JSON kube-apiserver would show,
// and protoc reads what the codec writes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { decodeProtobuf, encodeProtobuf } from '../../../../internal/apiserver/protobuf/index.ts';
import { rawMessageOf, referenceBody, referenceEnvelope } from './proto-reference.ts';

type Json = Record<string, unknown>;

/** A Pod as a Go client marshals it: zeros in every non-pointer field, pointer fields only when set. */
const goPod: Json = {
  metadata: { name: 'web-1', generateName: '', namespace: 'default', selfLink: '', uid: '', resourceVersion: '', generation: 0, creationTimestamp: {}, labels: { app: 'web' } },
  spec: {
    containers: [{
      name: 'main', image: 'nginx', workingDir: '', ports: [{ name: '', hostPort: 0, containerPort: 80, protocol: 'TCP', hostIP: '' }],
      resources: { limits: { cpu: { string: '500m' } } }, terminationMessagePath: '', imagePullPolicy: '', stdin: false, tty: false,
      livenessProbe: { handler: { httpGet: { path: '/', port: { type: 1, intVal: 0, strVal: 'http' }, host: '', scheme: '' } }, initialDelaySeconds: 0, timeoutSeconds: 0, periodSeconds: 10 },
    }],
    restartPolicy: 'Always', terminationGracePeriodSeconds: 0, dnsPolicy: '', nodeName: '', hostNetwork: false, serviceAccountName: '', schedulerName: '', enableServiceLinks: false,
  },
  status: { phase: '', message: '', reason: '', hostIP: '', podIP: '', qosClass: '' },
};

test('a Go client\'s Pod decodes to the JSON kube-apiserver shows: non-pointer zeros dropped, pointer zeros kept', () => {
  const decoded = decodeProtobuf(referenceBody('v1', 'Pod', 'k8s.io.api.core.v1.Pod', goPod));
  assert.deepEqual(decoded, {
    kind: 'Pod', apiVersion: 'v1',
    metadata: { name: 'web-1', namespace: 'default', labels: { app: 'web' } },
    spec: {
      containers: [{
        name: 'main', image: 'nginx', ports: [{ containerPort: 80, protocol: 'TCP' }], resources: { limits: { cpu: '500m' } },
        livenessProbe: { httpGet: { path: '/', port: 'http' }, periodSeconds: 10 },
      }],
      restartPolicy: 'Always', terminationGracePeriodSeconds: 0, enableServiceLinks: false,
    },
    status: {},
  });
});

test('what the codec writes reads back field by field through an independent root', () => {
  const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'i', args: ['x', 'y'] }], priority: -5, activeDeadlineSeconds: 2 ** 40 } };
  const envelope = referenceEnvelope(encodeProtobuf(pod));
  assert.deepEqual(envelope.typeMeta, { apiVersion: 'v1', kind: 'Pod' });
  assert.equal(envelope.contentEncoding, '');
  assert.equal(envelope.contentType, '');
  const raw = rawMessageOf(encodeProtobuf(pod), 'k8s.io.api.core.v1.Pod');
  assert.deepEqual(raw, { metadata: { name: 'p', labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'i', args: ['x', 'y'] }], priority: -5, activeDeadlineSeconds: 2 ** 40 } });
});

test('the envelope is byte for byte kube\'s: magic, typeMeta, raw, then empty contentEncoding and contentType', () => {
  const body = encodeProtobuf({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'a' } });
  const expected = Buffer.concat([
    Buffer.from('k8s\u0000', 'latin1'),
    Buffer.from([0x0a, 0x0f, 0x0a, 0x02]), Buffer.from('v1'), Buffer.from([0x12, 0x09]), Buffer.from('Namespace'),
    Buffer.from([0x12, 0x05, 0x0a, 0x03, 0x0a, 0x01]), Buffer.from('a'),
    Buffer.from([0x1a, 0x00, 0x22, 0x00]),
  ]);
  assert.deepEqual(body, expected);
});

const protoRoot = fileURLToPath(new URL('../../../../proto/', import.meta.url));

test('protoc --decode of an encoded NamespaceList\'s raw shows the same names as its JSON', { skip: !existsSync('/usr/bin/protoc') && 'no protoc (Debian protobuf-compiler)' }, () => {
  const names = ['default', 'kube-system', 'team-\u00e9'];
  const list = { apiVersion: 'v1', kind: 'NamespaceList', metadata: { resourceVersion: '42' }, items: names.map((name) => ({ metadata: { name, labels: { 'kubernetes.io/metadata.name': name } }, spec: { finalizers: ['kubernetes'] }, status: { phase: 'Active' } })) };
  const raw = referenceEnvelope(encodeProtobuf(list)).raw;
  const text = execFileSync('/usr/bin/protoc', [`--proto_path=${protoRoot}`, '--decode=k8s.io.api.core.v1.NamespaceList', 'k8s.io/api/core/v1/generated.proto'], { input: raw }).toString();
  // protoc prints strings octal-escaped: read each `name: "…"` back as UTF-8 bytes.
  const printed = [...text.matchAll(/^ {4}name: "((?:[^"\\]|\\.)*)"$/gm)].map((m) => Buffer.from(unescapeProtoc(m[1] as string), 'latin1').toString('utf8'));
  assert.deepEqual(printed, names);
  assert.match(text, /resourceVersion: "42"/);
  assert.equal(decodeProtobuf(encodeProtobuf(list)).items instanceof Array, true);
});

/** protoc's C escapes (\\ooo octal, \\n, \\", \\\\) to the bytes they stand for, as a latin1 string. */
function unescapeProtoc(text: string): string {
  return text.replace(/\\([0-7]{3}|.)/g, (_, e: string) => (e.length === 3 ? String.fromCharCode(parseInt(e, 8)) : ({ n: '\n', t: '\t', r: '\r' } as Record<string, string>)[e] ?? e));
}
