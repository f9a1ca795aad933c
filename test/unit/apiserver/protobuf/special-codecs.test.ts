// Kubernetes' special encodings, each pinned to the bytes a Go client reads and writes: checked
// by decoding what encodeProtobuf wrote with protobufjs and the vendored .proto (not the codec's
// own plan), and by round trips for the JSON forms orch stores.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeProtobuf, encodeProtobuf } from '../../../../internal/apiserver/protobuf/index.ts';
import { rawMessageOf, referenceBody } from './proto-reference.ts';

type Json = Record<string, unknown>;

const pod = (spec: Json, metadata: Json = { name: 'p' }, status?: Json): Json => ({ apiVersion: 'v1', kind: 'Pod', metadata, spec, ...(status === undefined ? {} : { status }) });
const container = (extra: Json = {}): Json => ({ name: 'c', image: 'i', ...extra });

test('a Quantity is its string on the wire', () => {
  const object = pod({ containers: [container({ resources: { limits: { cpu: '1500m', memory: '1Gi' } } })] });
  const raw = rawMessageOf(encodeProtobuf(object), 'k8s.io.api.core.v1.Pod');
  const limits = (((raw.spec as Json).containers as Json[])[0]?.resources as Json).limits as Record<string, Json>;
  assert.deepEqual({ cpu: limits.cpu?.string, memory: limits.memory?.string }, { cpu: '1500m', memory: '1Gi' });
  assert.deepEqual(decodeProtobuf(encodeProtobuf(object)), object);
});

test('an IntOrString is type 0 with intVal or type 1 with strVal', () => {
  const object = { apiVersion: 'v1', kind: 'Service', metadata: { name: 's' }, spec: { ports: [{ port: 80, targetPort: 8080 }, { port: 81, targetPort: 'http' }] } };
  const raw = rawMessageOf(encodeProtobuf(object), 'k8s.io.api.core.v1.Service');
  const ports = (raw.spec as Json).ports as Json[];
  assert.deepEqual(ports.map((p) => p.targetPort), [{ type: 0, intVal: 8080 }, { type: 1, strVal: 'http' }]);
  assert.deepEqual(decodeProtobuf(encodeProtobuf(object)), object);
});

test('a zero IntOrString a Go client always writes decodes as 0, not absent (Go\'s JSON never omits a struct)', () => {
  const object = { apiVersion: 'v1', kind: 'Service', metadata: { name: 's' }, spec: { ports: [{ port: 80, targetPort: 0 }] } };
  assert.deepEqual(decodeProtobuf(encodeProtobuf(object)), object);
});

test('a Time is seconds and nanos; JSON keeps whole seconds, and decoding drops nanos as metav1.Time.Unmarshal does', () => {
  const object = pod({ containers: [container()] }, { name: 'p', creationTimestamp: '2026-11-26T10:00:05Z' });
  const raw = rawMessageOf(encodeProtobuf(object), 'k8s.io.api.core.v1.Pod');
  assert.deepEqual((raw.metadata as Json).creationTimestamp, { seconds: 1795687205, nanos: 0 });
  assert.deepEqual(decodeProtobuf(encodeProtobuf(object)), object);
  const withNanos = pod({ containers: [container()] }, { name: 'p', creationTimestamp: '2026-11-26T10:00:05.999999999Z' });
  assert.equal((decodeProtobuf(encodeProtobuf(withNanos)).metadata as Json).creationTimestamp, '2026-11-26T10:00:05Z');
});

test('a Time of the Unix epoch is a timestamp, not Go\'s zero time', () => {
  const object = pod({ containers: [container()] }, { name: 'p', creationTimestamp: '1970-01-01T00:00:00Z' });
  assert.deepEqual(decodeProtobuf(encodeProtobuf(object)), object);
});

test('a MicroTime keeps microseconds in JSON', () => {
  const object = { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: 'l' }, spec: { holderIdentity: 'a', renewTime: '2026-11-26T10:00:00.123456Z' } };
  const raw = rawMessageOf(encodeProtobuf(object), 'k8s.io.api.coordination.v1.Lease');
  assert.deepEqual((raw.spec as Json).renewTime, { seconds: 1795687200, nanos: 123456000 });
  assert.deepEqual(decodeProtobuf(encodeProtobuf(object)), object);
});

test('a Duration is nanoseconds on the wire and Go\'s duration text in JSON', () => {
  const object = {
    apiVersion: 'flowcontrol.apiserver.k8s.io/v1beta3', kind: 'FlowSchema', metadata: { name: 'f' },
    spec: { priorityLevelConfiguration: { name: 'x' } },
  };
  assert.deepEqual(decodeProtobuf(encodeProtobuf(object)), object);
});

test('a RawExtension carries its JSON as raw bytes', () => {
  const object = { apiVersion: 'apps/v1', kind: 'ControllerRevision', metadata: { name: 'r' }, data: { spec: { replicas: 2, template: { metadata: { labels: { a: 'b' } } } } }, revision: 3 };
  const raw = rawMessageOf(encodeProtobuf(object), 'k8s.io.api.apps.v1.ControllerRevision');
  assert.deepEqual(JSON.parse(Buffer.from((raw.data as Json).raw as Uint8Array).toString()), object.data);
  assert.deepEqual(decodeProtobuf(encodeProtobuf(object)), object);
});

test('a RawExtension whose raw is a Protobuf object (k8s\\0…) decodes to that object\'s JSON', () => {
  const inner = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'inner' }, data: { k: 'v' } };
  const outer = referenceBody('apps/v1', 'ControllerRevision', 'k8s.io.api.apps.v1.ControllerRevision', { metadata: { name: 'r' }, data: { raw: encodeProtobuf(inner) }, revision: 1 });
  assert.deepEqual(decodeProtobuf(outer).data, { kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'inner' }, data: { k: 'v' } });
});

test('FieldsV1 carries managedFields\' field sets as raw JSON bytes', () => {
  const fieldsV1 = { 'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } } };
  const object = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', managedFields: [{ manager: 'kubectl', operation: 'Apply', apiVersion: 'v1', time: '2026-11-26T10:00:00Z', fieldsType: 'FieldsV1', fieldsV1 }] } };
  const raw = rawMessageOf(encodeProtobuf(object), 'k8s.io.api.core.v1.ConfigMap');
  const entry = ((raw.metadata as Json).managedFields as Json[])[0] as Json;
  assert.deepEqual(JSON.parse(Buffer.from((entry.fieldsV1 as Json).Raw as Uint8Array).toString()), fieldsV1);
  assert.deepEqual(decodeProtobuf(encodeProtobuf(object)), object);
});

test('bytes fields (Secret data, ConfigMap binaryData) are raw bytes on the wire and base64 in JSON', () => {
  const secret = { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' }, type: 'Opaque', data: { password: Buffer.from('s3cr\u00e9t\u0000').toString('base64') } };
  const raw = rawMessageOf(encodeProtobuf(secret), 'k8s.io.api.core.v1.Secret');
  assert.equal(Buffer.from((raw.data as Record<string, Uint8Array>).password as Uint8Array).toString('latin1'), Buffer.from('s3cr\u00e9t\u0000').toString('latin1'));
  assert.deepEqual(decodeProtobuf(encodeProtobuf(secret)), secret);
  const configMap = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, binaryData: { bin: Buffer.from([0, 1, 2, 255]).toString('base64') } };
  assert.deepEqual(decodeProtobuf(encodeProtobuf(configMap)), configMap);
});

test('maps and repeated items survive, an empty value included', () => {
  const object = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', labels: { a: '', 'b.example.com/c': 'd' }, finalizers: ['x', 'y'] }, data: { empty: '', 'k\u00e9y': 'v\u00e4lue \ud83d\ude00' } };
  assert.deepEqual(decodeProtobuf(encodeProtobuf(object)), object);
});

test('a Go pointer field keeps an explicit zero (replicas: 0); a non-pointer zero is Go\'s "unset" and is dropped', () => {
  const deployment = {
    apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd' },
    spec: { replicas: 0, minReadySeconds: 0, paused: false, selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b' } }, spec: { containers: [container()] } } },
  };
  const decoded = decodeProtobuf(encodeProtobuf(deployment));
  const spec = decoded.spec as Json;
  assert.equal(spec.replicas, 0);
  assert.equal('minReadySeconds' in spec, false);
  assert.equal('paused' in spec, false);
  const serviceAccount = { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'sa' }, automountServiceAccountToken: false };
  assert.deepEqual(decodeProtobuf(encodeProtobuf(serviceAccount)), serviceAccount);
});

test('a field Go\'s JSON writes even when zero (required) keeps its zero', () => {
  const object = pod({ containers: [container({ ports: [{ containerPort: 0 }] })] }, { name: 'p' }, { containerStatuses: [{ name: 'c', ready: false, restartCount: 0, image: 'i', imageID: '' }] });
  assert.deepEqual(decodeProtobuf(encodeProtobuf(object)), object);
});

test('a struct Go inlines in JSON (VolumeSource, ProbeHandler) is a nested message on the wire', () => {
  const object = pod({
    containers: [container({ livenessProbe: { httpGet: { path: '/healthz', port: 8080 }, periodSeconds: 5 } })],
    volumes: [{ name: 'v', configMap: { name: 'cm', defaultMode: 420 } }, { name: 'e', emptyDir: {} }],
  });
  const raw = rawMessageOf(encodeProtobuf(object), 'k8s.io.api.core.v1.Pod');
  const volumes = (raw.spec as Json).volumes as Json[];
  assert.deepEqual((volumes[0]?.volumeSource as Json).configMap, { localObjectReference: { name: 'cm' }, defaultMode: 420 });
  const probe = (((raw.spec as Json).containers as Json[])[0] as Json).livenessProbe as Json;
  assert.equal(((probe.handler as Json).httpGet as Json).path, '/healthz');
  assert.deepEqual(decodeProtobuf(encodeProtobuf(object)), object);
});

test('apiextensions\' schema unions (bool or schema, schema or list, JSON) survive', () => {
  const crd = {
    apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'foos.example.com' },
    spec: {
      group: 'example.com', scope: 'Namespaced', names: { plural: 'foos', singular: 'foo', kind: 'Foo', listKind: 'FooList' },
      versions: [{
        name: 'v1', served: true, storage: true,
        schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true, additionalProperties: false, properties: {
          spec: { type: 'object', additionalProperties: { type: 'string' }, default: { a: 1 }, 'x-kubernetes-list-type': 'atomic', maximum: 2.5 },
          items: { type: 'array', items: { type: 'string', enum: ['a', 'b'] } },
        } } },
      }],
    },
  };
  assert.deepEqual(decodeProtobuf(encodeProtobuf(crd)), crd);
});
