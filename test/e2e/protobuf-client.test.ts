// Issue 21's acceptance on a real 3-process cluster: a Protobuf client built from the vendored
// .proto files alone (test/support/protobuf-test-client.ts), writing its messages as a Go client
// fills its structs (Go's zero values included), creates, updates, patches, lists in chunks and
// watches pods, deployments, configmaps, nodes and Events of both groups through each replica;
// what it wrote is read back in JSON through another replica, field by field.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { benchPod } from '../../bench/pod-body.ts';
import { benchPodMessage } from '../../bench/protobuf-bench.ts';
import { startClusterFixture, type ClusterFixture } from '../support/cluster-fixture.ts';
import {
  decodeObject, goContainer, goObjectMeta, goPodSpec, intOrString, protobufMediaType, protobufWatchMediaType, protoMicroTime, protoTime, ProtobufTestClient, quantity,
  type DecodedObject, type EnvelopeTypeMeta, type ProtoMessage,
} from '../support/protobuf-test-client.ts';

let fixture: ClusterFixture;
let clients: ProtobufTestClient[];

before(async () => {
  fixture = await startClusterFixture();
  clients = fixture.cluster.replicas.map((r) => new ProtobufTestClient(r.apiUrl, fixture.cluster.caPem, fixture.cluster.adminToken));
});

after(async () => {
  await Promise.all((clients ?? []).map((c) => c.close().catch(() => undefined)));
  await fixture?.close();
});

/** Marks a field that must be absent: not on the wire, or absent or null in JSON (a zero Time). */
const absent = Symbol('absent');

/** Where two JSON values differ, `path: a | b` per leaf; null and absent are the same (Go writes a zero Time as null). */
function differences(a: unknown, b: unknown, path = ''): string[] {
  if (a === null || b === null) return (a ?? undefined) === (b ?? undefined) ? [] : [`${path}: ${JSON.stringify(a)} | ${JSON.stringify(b)}`];
  if (typeof a === 'object' && typeof b === 'object') {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    return [...keys].flatMap((k) => differences((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], `${path}.${k}`));
  }
  return JSON.stringify(a) === JSON.stringify(b) ? [] : [`${path}: ${JSON.stringify(a)} | ${JSON.stringify(b)}`];
}

/** The value at a dotted path (`spec.containers.0.image`), or undefined. */
function at(value: unknown, path: string): unknown {
  return path.split('.').reduce<unknown>((v, key) => (v === null || typeof v !== 'object' ? undefined : (v as Record<string, unknown>)[key]), value);
}

/** Marks a zero metav1.Time or MicroTime in a Protobuf answer: absent, or an empty message as Go writes it. */
const zeroTime = Symbol('zeroTime');

/** Asserts each path of `expected` in `object`, naming the path that differs. */
function expectFields(object: unknown, expected: Record<string, unknown>, what: string): void {
  for (const [path, want] of Object.entries(expected)) {
    const got = at(object, path);
    if (want === absent) assert.ok(got === undefined || got === null, `${what}: ${path} should be absent, is ${JSON.stringify(got)}`);
    else if (want === zeroTime) assert.ok(got === undefined || (typeof got === 'object' && got !== null && Object.keys(got).length === 0), `${what}: ${path} should be a zero time, is ${JSON.stringify(got)}`);
    else assert.deepEqual(got, want, `${what}: ${path} is ${JSON.stringify(got)}, not ${JSON.stringify(want)}`);
  }
}

/** The object at `path` in JSON through `replica`. */
async function readJson(replica: number, path: string): Promise<unknown> {
  const res = await fixture.clients[replica % 3]!.call('GET', path, { headers: { accept: 'application/json' } });
  assert.equal(res.status, 200, `GET ${path} in JSON: ${res.text}`);
  return res.json;
}

/** An object's metadata as decoded. */
const metadataOf = (object: DecodedObject): { name?: string; uid?: string; resourceVersion?: string } => (object.message.metadata ?? {}) as { name?: string; uid?: string; resourceVersion?: string };

/** One kind's part of the lifecycle: the message it creates and what must read back. */
interface KindCase {
  readonly typeMeta: EnvelopeTypeMeta;
  /** Collection path; namespaced kinds take their namespace. */
  collection(namespace: string | null): string;
  readonly namespaced: boolean;
  /** A new object's message, as a Go client fills it. */
  create(name: string, namespace: string | null, labels: Record<string, string>): ProtoMessage;
  /** Paths of the created object's JSON read back, with their values. */
  readonly created: Record<string, unknown>;
  /** Changes the object as decoded from the create answer, for a PUT. */
  update(message: ProtoMessage): void;
  readonly updated: Record<string, unknown>;
  readonly mergePatch: Record<string, unknown>;
  /** Paths of the patch's Protobuf answer and of its JSON read back. */
  readonly patchedProtobuf: Record<string, unknown>;
  readonly patchedJson: Record<string, unknown>;
  /** The same object written in JSON (as a Go client marshals it): its read back must equal the Protobuf one's at `paths`. */
  readonly jsonTwin?: { readonly body: (name: string, namespace: string | null) => Record<string, unknown>; readonly paths: readonly string[] };
  /** The created object read in JSON through another group version of the same store. */
  readonly alsoAs?: { readonly path: (namespace: string | null, name: string) => string; readonly fields: Record<string, unknown> };
}

/** Creates namespace `name` in Protobuf through `client`, as the Kubernetes e2e framework does. */
async function createNamespace(client: ProtobufTestClient, name: string): Promise<void> {
  const answer = await client.call('POST', '/api/v1/namespaces', { object: { typeMeta: { apiVersion: 'v1', kind: 'Namespace' }, message: { metadata: goObjectMeta({ name }), spec: {}, status: {} } } }, [201]);
  expectFields(answer.message, { 'metadata.name': name, 'status.phase': 'Active', 'spec.finalizers': ['kubernetes'] }, 'namespace create answer');
}

/** The names and remainingItemCounts of a list read `limit` at a time, in Protobuf or JSON. */
async function listInChunks(read: (path: string) => Promise<{ kind: string; metadata: { continue?: string; remainingItemCount?: number }; names: string[] }>, collection: string, limit: number): Promise<{ kinds: string[]; names: string[]; remaining: (number | undefined)[] }> {
  const result = { kinds: [] as string[], names: [] as string[], remaining: [] as (number | undefined)[] };
  let token = '';
  for (let page = 0; page < 50; page++) {
    const list = await read(`${collection}?limit=${limit}${token === '' ? '' : `&continue=${encodeURIComponent(token)}`}`);
    assert.ok(list.names.length <= limit, `a page holds at most ${limit} items`);
    result.kinds.push(list.kind);
    result.names.push(...list.names);
    result.remaining.push(list.metadata.remainingItemCount);
    if (!list.metadata.continue) return result;
    token = list.metadata.continue;
  }
  assert.fail('the list did not end in 50 pages');
}

/** `collection` read 2 at a time in Protobuf through `client` and in JSON through `replica`: the same pages, names and remaining counts; its names. */
async function chunkedNames(client: ProtobufTestClient, replica: number, collection: string, listKind: string): Promise<string[]> {
  const inProtobuf = await listInChunks(async (p) => {
    const list = await client.call('GET', p, {}, [200]);
    return { kind: list.typeMeta.kind, metadata: list.message.metadata as { continue?: string }, names: ((list.message.items ?? []) as ProtoMessage[]).map((i) => String(at(i, 'metadata.name'))) };
  }, collection, 2);
  const inJson = await listInChunks(async (p) => {
    const list = await readJson(replica, p) as { kind: string; metadata: { continue?: string }; items: { metadata: { name: string } }[] };
    return { kind: list.kind, metadata: list.metadata, names: list.items.map((i) => i.metadata.name) };
  }, collection, 2);
  assert.deepEqual(inProtobuf, inJson);
  assert.ok(inProtobuf.kinds.every((k) => k === listKind), inProtobuf.kinds.join());
  return inProtobuf.names;
}

/** Create, PUT (and a stale PUT), merge patch, chunked list, delete of `kind` through `replica` in Protobuf; a Protobuf watch through another replica sees each. */
async function lifecycle(kind: KindCase, replica: number): Promise<void> {
  const client = clients[replica]!;
  const suite = `${kind.typeMeta.kind.toLowerCase()}-${kind.typeMeta.apiVersion.split('/')[0]!.split('.')[0]}-${replica}`;
  const namespace = kind.namespaced ? `pb-${suite}` : null;
  if (namespace !== null) await createNamespace(client, namespace);
  const collection = kind.collection(namespace);
  const labels = { 'pb-suite': suite };
  const name = `pb-${suite}`;
  const path = `${collection}/${name}`;
  const object = (message: ProtoMessage) => ({ object: { typeMeta: kind.typeMeta, message } });

  const start = await client.call('GET', collection, {}, [200]);
  const watcher = clients[(replica + 2) % 3]!;
  const watch = await watcher.watch(`${collection}?watch=1&labelSelector=${encodeURIComponent(`pb-suite=${suite}`)}&resourceVersion=${(start.message.metadata as { resourceVersion: string }).resourceVersion}`);
  try {
    assert.equal(watch.status, 200);
    assert.equal(watch.contentType, protobufWatchMediaType);

    const created = await client.call('POST', collection, object(kind.create(name, namespace, labels)), [201]);
    assert.deepEqual(created.typeMeta, kind.typeMeta);
    expectFields(created.message, { 'metadata.name': name, 'metadata.labels.pb-suite': suite }, 'create answer');
    const createdJson = await readJson(replica + 1, path);
    expectFields(createdJson, kind.created, `${suite} created`);
    if (kind.jsonTwin !== undefined) {
      const twin = await fixture.clients[(replica + 1) % 3]!.call('POST', collection, { body: kind.jsonTwin.body(`json-${name}`, namespace) });
      assert.equal(twin.status, 201, twin.text);
      const twinJson = await readJson(replica + 2, `${collection}/json-${name}`);
      for (const p of kind.jsonTwin.paths) assert.deepEqual(differences(at(createdJson, p), at(twinJson, p)), [], `${suite}: ${p} written in Protobuf and in JSON`);
    }
    if (kind.alsoAs !== undefined) expectFields(await readJson(replica + 2, kind.alsoAs.path(namespace, name)), kind.alsoAs.fields, `${suite} created, read through the other group`);

    const oldVersion = metadataOf(created).resourceVersion;
    kind.update(created.message);
    const updated = await client.call('PUT', path, object(created.message), [200]);
    assert.notEqual(metadataOf(updated).resourceVersion, oldVersion);
    expectFields(await readJson(replica + 1, path), kind.updated, `${suite} updated`);
    const stale = await client.send('PUT', path, object(created.message));
    assert.equal(stale.status, 409);
    assert.equal(stale.contentType, protobufMediaType);
    const conflict = decodeObject(stale.body);
    assert.deepEqual(conflict.typeMeta, { apiVersion: 'v1', kind: 'Status' });
    expectFields(conflict.message, { status: 'Failure', reason: 'Conflict', code: 409 }, 'stale PUT');

    const patched = await client.call('PATCH', path, { body: JSON.stringify(kind.mergePatch), contentType: 'application/merge-patch+json' }, [200]);
    assert.deepEqual(patched.typeMeta, kind.typeMeta);
    expectFields(patched.message, kind.patchedProtobuf, `${suite} patch answer`);
    expectFields(await readJson(replica + 1, path), kind.patchedJson, `${suite} patched`);

    for (let n = 1; n <= 4; n++) await client.call('POST', collection, object(kind.create(`${name}-${n}`, namespace, labels)), [201]);
    const names = await chunkedNames(client, replica + 1, collection, `${kind.typeMeta.kind}List`);
    const mine = names.filter((n) => n.startsWith(name));
    assert.deepEqual(mine, [name, ...[1, 2, 3, 4].map((n) => `${name}-${n}`)]);

    // client-go's Delete sends DeleteOptions in the resource's group version; a failed precondition is a 409 Status.
    const deleteOptions = (message: ProtoMessage) => ({ object: { typeMeta: { apiVersion: kind.typeMeta.apiVersion, kind: 'DeleteOptions' }, message } });
    const refused = await client.send('DELETE', path, deleteOptions({ preconditions: { uid: 'not-its-uid' } }));
    assert.equal(refused.status, 409, refused.body.toString('latin1').slice(0, 300));
    expectFields(decodeObject(refused.body).message, { reason: 'Conflict', code: 409 }, 'DELETE with a wrong uid precondition');
    const deleted = await client.call('DELETE', path, deleteOptions({ gracePeriodSeconds: 0, preconditions: { uid: metadataOf(patched).uid, resourceVersion: metadataOf(patched).resourceVersion } }), [200]);
    assert.ok(deleted.typeMeta.kind === kind.typeMeta.kind || (deleted.typeMeta.kind === 'Status' && deleted.message.status === 'Success'), JSON.stringify(deleted.typeMeta));

    const gone = await watch.until((e) => e.type === 'DELETED' && metadataOf(e.object).name === name);
    const seen = watch.events.slice(0, watch.events.indexOf(gone) + 1);
    assert.deepEqual(seen.map((e) => [e.type, metadataOf(e.object).name]), [
      ['ADDED', name], ['MODIFIED', name], ['MODIFIED', name], ...[1, 2, 3, 4].map((n) => ['ADDED', `${name}-${n}`]), ['DELETED', name],
    ]);
    assert.deepEqual(seen.slice(0, 3).map((e) => metadataOf(e.object).resourceVersion), [created, updated, patched].map((o) => metadataOf(o).resourceVersion));
    for (const event of seen) assert.deepEqual(event.object.typeMeta, kind.typeMeta, `${event.type} event's envelope`);
    expectFields(seen[2]!.object.message, kind.patchedProtobuf, `${suite} MODIFIED event of the patch`);
  } finally {
    watch.close();
  }
}

const appContainer = goContainer({
  name: 'app',
  image: 'registry.example.com/app:1.25',
  ports: [{ name: 'http', hostPort: 0, containerPort: 8080, protocol: '', hostIP: '' }],
  env: [{ name: 'EMPTY', value: '' }, { name: 'POD_NAME', value: '', valueFrom: { fieldRef: { apiVersion: '', fieldPath: 'metadata.name' } } }],
  resources: { limits: { cpu: quantity('1000m'), memory: quantity('256Mi') }, requests: { cpu: quantity('250m'), memory: quantity('64Mi') } },
  livenessProbe: { handler: { httpGet: { path: '/healthz', port: intOrString('http'), host: '', scheme: '' } }, initialDelaySeconds: 5, timeoutSeconds: 0, periodSeconds: 0, successThreshold: 0, failureThreshold: 0 },
  readinessProbe: { handler: { tcpSocket: { port: intOrString(8080), host: '' } }, initialDelaySeconds: 0, timeoutSeconds: 2, periodSeconds: 0, successThreshold: 0, failureThreshold: 0 },
});

/** appContainer as a Go client marshals it to JSON (omitempty drops its zero values). */
const appContainerJson = {
  name: 'app',
  image: 'registry.example.com/app:1.25',
  ports: [{ name: 'http', containerPort: 8080 }],
  env: [{ name: 'EMPTY' }, { name: 'POD_NAME', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } }],
  resources: { limits: { cpu: '1000m', memory: '256Mi' }, requests: { cpu: '250m', memory: '64Mi' } },
  livenessProbe: { httpGet: { path: '/healthz', port: 'http' }, initialDelaySeconds: 5 },
  readinessProbe: { tcpSocket: { port: 8080 }, timeoutSeconds: 2 },
};

/** What of appContainer is Protobuf's to get right, as kube-apiserver reads it back (the rest: the JSON twin). */
const appContainerFields = (prefix: string): Record<string, unknown> => ({
  [`${prefix}.resources`]: { limits: { cpu: '1', memory: '256Mi' }, requests: { cpu: '250m', memory: '64Mi' } },
  [`${prefix}.ports`]: [{ name: 'http', containerPort: 8080, protocol: 'TCP' }],
  [`${prefix}.env.0`]: { name: 'EMPTY' },
  [`${prefix}.livenessProbe.httpGet.port`]: 'http',
  [`${prefix}.livenessProbe.httpGet.host`]: absent,
  [`${prefix}.livenessProbe.initialDelaySeconds`]: 5,
  [`${prefix}.readinessProbe.tcpSocket.port`]: 8080,
  [`${prefix}.readinessProbe.timeoutSeconds`]: 2,
  [`${prefix}.readinessProbe.initialDelaySeconds`]: absent,
  [`${prefix}.stdin`]: absent,
  [`${prefix}.workingDir`]: absent,
  [`${prefix}.imagePullPolicy`]: 'IfNotPresent',
  [`${prefix}.terminationMessagePath`]: '/dev/termination-log',
});

const pods: KindCase = {
  typeMeta: { apiVersion: 'v1', kind: 'Pod' },
  namespaced: true,
  collection: (ns) => `/api/v1/namespaces/${ns}/pods`,
  create: (name, namespace, labels) => ({
    metadata: goObjectMeta({ name, namespace: namespace ?? '', labels, annotations: { note: 'written in protobuf' } }),
    spec: goPodSpec({
      containers: [appContainer],
      volumes: [{ name: 'cache', volumeSource: { emptyDir: { medium: '', sizeLimit: quantity('1Gi') } } }],
      terminationGracePeriodSeconds: 0,
      enableServiceLinks: false,
      automountServiceAccountToken: false,
      securityContext: { runAsUser: 0, runAsNonRoot: false },
      tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'pb', effect: 'NoSchedule' }],
    }),
    status: {},
  }),
  created: {
    'metadata.annotations': { note: 'written in protobuf' },
    ...appContainerFields('spec.containers.0'),
    'spec.volumes': [{ name: 'cache', emptyDir: { sizeLimit: '1Gi' } }],
    'spec.terminationGracePeriodSeconds': 0,
    'spec.enableServiceLinks': false,
    'spec.automountServiceAccountToken': false,
    'spec.securityContext': { runAsUser: 0, runAsNonRoot: false },
    'spec.restartPolicy': 'Always',
    'spec.dnsPolicy': 'ClusterFirst',
    'spec.schedulerName': 'default-scheduler',
    'spec.nodeName': absent,
    'spec.hostNetwork': absent,
    'spec.activeDeadlineSeconds': absent,
    'status.phase': 'Pending',
  },
  update: (message) => {
    Object.assign(at(message, 'spec.containers.0') as ProtoMessage, { image: 'registry.example.com/app:1.26' });
    Object.assign(at(message, 'metadata.labels') as ProtoMessage, { updated: 'yes' });
  },
  jsonTwin: {
    body: (name, namespace) => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace }, spec: { containers: [appContainerJson], volumes: [{ name: 'cache', emptyDir: { sizeLimit: '1Gi' } }], terminationGracePeriodSeconds: 0, enableServiceLinks: false, automountServiceAccountToken: false, securityContext: { runAsUser: 0, runAsNonRoot: false }, tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'pb', effect: 'NoSchedule' }] } }),
    paths: ['spec', 'status.phase'],
  },
  updated: { 'spec.containers.0.image': 'registry.example.com/app:1.26', 'metadata.labels.updated': 'yes', 'spec.containers.0.resources.limits.cpu': '1' },
  mergePatch: { metadata: { annotations: { patched: 'true' } }, spec: { activeDeadlineSeconds: 600 } },
  patchedProtobuf: { 'spec.activeDeadlineSeconds': 600, 'metadata.annotations.patched': 'true', 'spec.terminationGracePeriodSeconds': 0, 'spec.enableServiceLinks': false, 'spec.securityContext.runAsUser': 0 },
  patchedJson: { 'spec.activeDeadlineSeconds': 600, 'metadata.annotations': { note: 'written in protobuf', patched: 'true' }, 'spec.containers.0.image': 'registry.example.com/app:1.26' },
};

const deployments: KindCase = {
  typeMeta: { apiVersion: 'apps/v1', kind: 'Deployment' },
  namespaced: true,
  collection: (ns) => `/apis/apps/v1/namespaces/${ns}/deployments`,
  create: (name, namespace, labels) => ({
    metadata: goObjectMeta({ name, namespace: namespace ?? '', labels }),
    spec: {
      replicas: 0,
      selector: { matchLabels: { app: 'web' }, matchExpressions: [{ key: 'tier', operator: 'In', values: ['web', 'api'] }] },
      template: { metadata: goObjectMeta({ labels: { app: 'web', tier: 'web' } }), spec: goPodSpec({ containers: [appContainer] }) },
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: intOrString(0), maxSurge: intOrString('25%') } },
      minReadySeconds: 0,
      revisionHistoryLimit: 0,
      paused: true,
      progressDeadlineSeconds: 120,
    },
    status: { observedGeneration: 0, replicas: 0, updatedReplicas: 0, readyReplicas: 0, availableReplicas: 0, unavailableReplicas: 0 },
  }),
  created: {
    'spec.replicas': 0,
    'spec.strategy': { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: '25%' } },
    'spec.revisionHistoryLimit': 0,
    'spec.paused': true,
    'spec.progressDeadlineSeconds': 120,
    'spec.minReadySeconds': absent,
    'spec.selector.matchExpressions': [{ key: 'tier', operator: 'In', values: ['web', 'api'] }],
    'spec.template.metadata.creationTimestamp': absent,
    'spec.template.metadata.labels.tier': 'web',
    ...appContainerFields('spec.template.spec.containers.0'),
    'metadata.generation': 1,
  },
  jsonTwin: {
    body: (name, namespace) => ({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name, namespace },
      spec: {
        replicas: 0,
        selector: { matchLabels: { app: 'web' }, matchExpressions: [{ key: 'tier', operator: 'In', values: ['web', 'api'] }] },
        template: { metadata: { creationTimestamp: null, labels: { app: 'web', tier: 'web' } }, spec: { containers: [appContainerJson] } },
        strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: '25%' } },
        revisionHistoryLimit: 0,
        paused: true,
        progressDeadlineSeconds: 120,
      },
      status: {},
    }),
    paths: ['spec'],
  },
  update: (message) => {
    Object.assign(at(message, 'spec') as ProtoMessage, { replicas: 3, paused: false });
    Object.assign(at(message, 'spec.strategy.rollingUpdate') as ProtoMessage, { maxUnavailable: intOrString('10%'), maxSurge: intOrString(2) });
  },
  updated: { 'spec.replicas': 3, 'spec.paused': absent, 'spec.strategy.rollingUpdate': { maxUnavailable: '10%', maxSurge: 2 }, 'metadata.generation': 2 },
  mergePatch: { spec: { replicas: 0, revisionHistoryLimit: 5 } },
  patchedProtobuf: { 'spec.replicas': 0, 'spec.revisionHistoryLimit': 5, 'spec.strategy.rollingUpdate.maxSurge.intVal': 2, 'spec.strategy.rollingUpdate.maxUnavailable.strVal': '10%' },
  patchedJson: { 'spec.replicas': 0, 'spec.revisionHistoryLimit': 5, 'spec.progressDeadlineSeconds': 120 },
};

/** Every byte value once: binaryData must come back exactly. */
const everyByte = Buffer.from(Array.from({ length: 256 }, (_, i) => i));

const configMaps: KindCase = {
  typeMeta: { apiVersion: 'v1', kind: 'ConfigMap' },
  namespaced: true,
  collection: (ns) => `/api/v1/namespaces/${ns}/configmaps`,
  create: (name, namespace, labels) => ({
    metadata: goObjectMeta({ name, namespace: namespace ?? '', labels }),
    data: { 'app.properties': 'a=1\nb=2\n', empty: '', unicode: 'Grüße, 世界' },
    binaryData: { 'every-byte': everyByte, nothing: Buffer.alloc(0) },
    immutable: false,
  }),
  created: {
    data: { 'app.properties': 'a=1\nb=2\n', empty: '', unicode: 'Grüße, 世界' },
    binaryData: { 'every-byte': everyByte.toString('base64'), nothing: '' },
    immutable: false,
  },
  update: (message) => {
    Object.assign(message.data as ProtoMessage, { 'app.properties': 'a=3\n' });
    Object.assign(message.binaryData as ProtoMessage, { more: Buffer.from([0xff, 0x00]) });
  },
  updated: { data: { 'app.properties': 'a=3\n', empty: '', unicode: 'Grüße, 世界' }, 'binaryData.more': '/wA=', 'binaryData.every-byte': everyByte.toString('base64') },
  mergePatch: { data: { patched: 'yes', empty: null }, binaryData: { patchedBytes: 'AAEC' } },
  patchedProtobuf: { 'data.patched': 'yes', 'data.empty': absent, 'binaryData.patchedBytes': Buffer.from([0, 1, 2]), 'binaryData.every-byte': everyByte, immutable: false },
  patchedJson: { data: { 'app.properties': 'a=3\n', patched: 'yes', unicode: 'Grüße, 世界' }, 'binaryData.patchedBytes': 'AAEC', immutable: false },
};

const nodeTime = '2024-03-04T05:06:07Z';

const nodes: KindCase = {
  typeMeta: { apiVersion: 'v1', kind: 'Node' },
  namespaced: false,
  collection: () => '/api/v1/nodes',
  create: (name, _namespace, labels) => ({
    metadata: goObjectMeta({ name, labels: { ...labels, 'kubernetes.io/os': 'linux' } }),
    spec: { podCIDR: '10.244.1.0/24', podCIDRs: ['10.244.1.0/24'], providerID: '', unschedulable: true, taints: [{ key: 'dedicated', value: 'pb', effect: 'NoSchedule', timeAdded: protoTime(nodeTime) }], externalID: '' },
    status: {
      capacity: { cpu: quantity('4'), memory: quantity('8Gi'), pods: quantity('110') },
      allocatable: { cpu: quantity('3800m'), memory: quantity('7680Mi'), pods: quantity('110') },
      phase: '',
      conditions: [{ type: 'Ready', status: 'True', lastHeartbeatTime: protoTime(nodeTime), lastTransitionTime: protoTime('2024-03-01T00:00:00Z'), reason: 'KubeletReady', message: 'kubelet is posting ready status' }],
      addresses: [{ type: 'InternalIP', address: '10.0.0.7' }, { type: 'Hostname', address: name }],
      daemonEndpoints: { kubeletEndpoint: { Port: 10250 } },
      nodeInfo: { machineID: 'm-1', systemUUID: 'u-1', bootID: 'b-1', kernelVersion: '6.1.0', osImage: 'Debian GNU/Linux 12', containerRuntimeVersion: 'containerd://1.7.0', kubeletVersion: 'v1.28.0', kubeProxyVersion: 'v1.28.0', operatingSystem: 'linux', architecture: 'amd64' },
    },
  }),
  created: {
    // TaintNodesByCondition (admission) adds the not-ready taint to every new Node.
    spec: { podCIDR: '10.244.1.0/24', podCIDRs: ['10.244.1.0/24'], unschedulable: true, taints: [{ key: 'dedicated', value: 'pb', effect: 'NoSchedule', timeAdded: nodeTime }, { key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' }] },
    'status.capacity': { cpu: '4', memory: '8Gi', pods: '110' },
    'status.allocatable': { cpu: '3800m', memory: '7680Mi', pods: '110' },
    'status.phase': absent,
    'status.conditions': [{ type: 'Ready', status: 'True', lastHeartbeatTime: nodeTime, lastTransitionTime: '2024-03-01T00:00:00Z', reason: 'KubeletReady', message: 'kubelet is posting ready status' }],
    'status.daemonEndpoints': { kubeletEndpoint: { Port: 10250 } },
    'status.nodeInfo.kubeletVersion': 'v1.28.0',
    'status.nodeInfo.architecture': 'amd64',
  },
  update: (message) => {
    Object.assign(message.spec as ProtoMessage, { unschedulable: false });
    Object.assign(at(message, 'metadata.labels') as ProtoMessage, { updated: 'yes' });
  },
  updated: { 'spec.unschedulable': absent, 'metadata.labels.updated': 'yes', 'spec.taints.0.timeAdded': nodeTime, 'status.capacity.memory': '8Gi' },
  mergePatch: { metadata: { labels: { patched: 'yes' } }, spec: { providerID: 'orch://pb-node' } },
  patchedProtobuf: { 'spec.providerID': 'orch://pb-node', 'spec.taints.0.timeAdded.seconds': Date.parse(nodeTime) / 1000, 'status.capacity.cpu': { string: '4' }, 'status.daemonEndpoints.kubeletEndpoint.Port': 10250 },
  patchedJson: { 'spec.providerID': 'orch://pb-node', 'metadata.labels.patched': 'yes', 'metadata.labels.updated': 'yes', 'spec.unschedulable': absent },
};

const eventSeconds = Date.parse('2024-01-02T03:04:05Z') / 1000;

const coreEvents: KindCase = {
  typeMeta: { apiVersion: 'v1', kind: 'Event' },
  namespaced: true,
  collection: (ns) => `/api/v1/namespaces/${ns}/events`,
  create: (name, namespace, labels) => ({
    metadata: goObjectMeta({ name, namespace: namespace ?? '', labels }),
    involvedObject: { kind: 'Pod', namespace: namespace ?? '', name: 'web-1', uid: '', apiVersion: 'v1', resourceVersion: '', fieldPath: 'spec.containers{app}' },
    reason: 'Pulled',
    message: 'Successfully pulled image',
    source: { component: 'kubelet', host: 'node-1' },
    firstTimestamp: protoTime('2024-01-01T00:00:00Z'),
    // A Time's nanoseconds are dropped by kube-apiserver's decoder (Go's Time.Unmarshal keeps whole seconds).
    lastTimestamp: { seconds: eventSeconds, nanos: 500_000_000 },
    count: 3,
    type: 'Normal',
    eventTime: {},
    action: '',
    reportingComponent: '',
    reportingInstance: '',
  }),
  created: {
    'involvedObject.kind': 'Pod',
    'involvedObject.name': 'web-1',
    'involvedObject.apiVersion': 'v1',
    'involvedObject.fieldPath': 'spec.containers{app}',
    'involvedObject.uid': absent,
    reason: 'Pulled',
    message: 'Successfully pulled image',
    source: { component: 'kubelet', host: 'node-1' },
    firstTimestamp: '2024-01-01T00:00:00Z',
    lastTimestamp: '2024-01-02T03:04:05Z',
    count: 3,
    type: 'Normal',
    eventTime: absent,
    series: absent,
    related: absent,
  },
  alsoAs: {
    path: (ns, name) => `/apis/events.k8s.io/v1/namespaces/${ns}/events/${name}`,
    fields: { note: 'Successfully pulled image', 'regarding.name': 'web-1', deprecatedCount: 3, deprecatedFirstTimestamp: '2024-01-01T00:00:00Z', deprecatedLastTimestamp: '2024-01-02T03:04:05Z', deprecatedSource: { component: 'kubelet', host: 'node-1' } },
  },
  update: (message) => {
    Object.assign(message, { count: 4, lastTimestamp: protoTime('2024-01-03T00:00:00Z') });
  },
  updated: { count: 4, lastTimestamp: '2024-01-03T00:00:00Z', firstTimestamp: '2024-01-01T00:00:00Z', eventTime: absent },
  mergePatch: { count: 5, message: 'patched message' },
  patchedProtobuf: { count: 5, message: 'patched message', 'firstTimestamp.seconds': Date.parse('2024-01-01T00:00:00Z') / 1000, 'lastTimestamp.seconds': Date.parse('2024-01-03T00:00:00Z') / 1000, eventTime: zeroTime, 'source.host': 'node-1' },
  patchedJson: { count: 5, message: 'patched message', lastTimestamp: '2024-01-03T00:00:00Z', eventTime: absent },
};

const structuredEvents: KindCase = {
  typeMeta: { apiVersion: 'events.k8s.io/v1', kind: 'Event' },
  namespaced: true,
  collection: (ns) => `/apis/events.k8s.io/v1/namespaces/${ns}/events`,
  create: (name, namespace, labels) => ({
    metadata: goObjectMeta({ name, namespace: namespace ?? '', labels }),
    eventTime: protoMicroTime(eventSeconds, 123_456_000),
    series: { count: 2, lastObservedTime: protoMicroTime(eventSeconds + 60, 654_321_000) },
    reportingController: 'example.com/pb-client',
    reportingInstance: 'pb-client-1',
    action: 'Scaling',
    reason: 'ScaledUp',
    regarding: { kind: 'Deployment', namespace: namespace ?? '', name: 'web', uid: '', apiVersion: 'apps/v1', resourceVersion: '', fieldPath: '' },
    note: 'Scaled up to 3',
    type: 'Warning',
    deprecatedSource: { component: '', host: '' },
    deprecatedFirstTimestamp: {},
    deprecatedLastTimestamp: {},
    deprecatedCount: 0,
  }),
  created: {
    eventTime: '2024-01-02T03:04:05.123456Z',
    series: { count: 2, lastObservedTime: '2024-01-02T03:05:05.654321Z' },
    reportingController: 'example.com/pb-client',
    reportingInstance: 'pb-client-1',
    action: 'Scaling',
    reason: 'ScaledUp',
    'regarding.kind': 'Deployment',
    'regarding.apiVersion': 'apps/v1',
    'regarding.fieldPath': absent,
    note: 'Scaled up to 3',
    type: 'Warning',
    deprecatedFirstTimestamp: absent,
    deprecatedLastTimestamp: absent,
    deprecatedCount: absent,
    related: absent,
  },
  alsoAs: {
    path: (ns, name) => `/api/v1/namespaces/${ns}/events/${name}`,
    fields: { message: 'Scaled up to 3', 'involvedObject.name': 'web', reportingComponent: 'example.com/pb-client', eventTime: '2024-01-02T03:04:05.123456Z', 'series.count': 2, count: absent, firstTimestamp: absent },
  },
  update: (message) => {
    Object.assign(message, { series: { count: 3, lastObservedTime: protoMicroTime(eventSeconds + 120, 0) } });
  },
  updated: { series: { count: 3, lastObservedTime: '2024-01-02T03:06:05.000000Z' }, eventTime: '2024-01-02T03:04:05.123456Z' },
  mergePatch: { metadata: { labels: { patched: 'yes' } }, series: { count: 4 } },
  patchedProtobuf: { 'series.count': 4, 'eventTime.seconds': eventSeconds, 'eventTime.nanos': 123_456_000, 'series.lastObservedTime.seconds': eventSeconds + 120, deprecatedFirstTimestamp: zeroTime, 'metadata.labels.patched': 'yes' },
  patchedJson: { series: { count: 4, lastObservedTime: '2024-01-02T03:06:05.000000Z' }, 'metadata.labels.patched': 'yes', deprecatedCount: absent },
};

for (const kind of [pods, deployments, configMaps, nodes, coreEvents, structuredEvents]) {
  test(`${kind.typeMeta.apiVersion} ${kind.typeMeta.kind}: created, updated, patched, listed in chunks and watched in Protobuf through each replica, read back in JSON through another`, async () => {
    for (const replica of [0, 1, 2]) await lifecycle(kind, replica);
  });
}

test('the bench\'s Pod written in Protobuf is stored as its JSON form is', async () => {
  const namespace = 'pb-bench-pod';
  await createNamespace(clients[0]!, namespace);
  const json = await fixture.clients[1]!.call('POST', `/api/v1/namespaces/${namespace}/pods`, { body: benchPod('from-json') });
  assert.equal(json.status, 201, json.text);
  await clients[2]!.call('POST', `/api/v1/namespaces/${namespace}/pods`, { object: { typeMeta: { apiVersion: 'v1', kind: 'Pod' }, message: benchPodMessage('from-protobuf') } }, [201]);
  const [fromJson, fromProtobuf] = await Promise.all(['from-json', 'from-protobuf'].map((name) => readJson(0, `/api/v1/namespaces/${namespace}/pods/${name}`))) as [unknown, unknown];
  // resourceFieldRef's divisor is a Quantity value Go's JSON always writes: "0" however the Pod was written.
  const divisors = (pod: unknown): unknown[] => [0, 1, 2].map((c) => at(pod, `spec.containers.${c}.env.4.valueFrom.resourceFieldRef.divisor`));
  for (const pod of [fromJson, fromProtobuf]) assert.deepEqual(divisors(pod), ['0', '0', '0']);
  // The ServiceAccount plugin names each pod's token volume with a random suffix.
  const sameTokenVolume = (pod: unknown): unknown => JSON.parse(JSON.stringify(pod).replace(/kube-api-access-[a-z0-9]{5}/g, 'kube-api-access-xxxxx'));
  for (const path of ['spec', 'metadata.labels', 'metadata.annotations', 'status.phase']) assert.deepEqual(differences(at(sameTokenVolume(fromProtobuf), path), at(sameTokenVolume(fromJson), path)), [], path);
});

test('Go\'s zero values in Protobuf are unset fields, which kube-apiserver\'s defaults then fill (Probe, HTTPGetAction, ObjectFieldSelector)', async () => {
  const namespace = 'pb-go-zeros';
  await createNamespace(clients[1]!, namespace);
  await clients[1]!.call('POST', `/api/v1/namespaces/${namespace}/pods`, { object: { typeMeta: { apiVersion: 'v1', kind: 'Pod' }, message: {
    metadata: goObjectMeta({ name: 'zeros', namespace }),
    spec: goPodSpec({ containers: [appContainer] }),
    status: {},
  } } }, [201]);
  expectFields(await readJson(2, `/api/v1/namespaces/${namespace}/pods/zeros`), {
    'spec.containers.0.livenessProbe': { httpGet: { path: '/healthz', port: 'http', scheme: 'HTTP' }, initialDelaySeconds: 5, timeoutSeconds: 1, periodSeconds: 10, successThreshold: 1, failureThreshold: 3 },
    'spec.containers.0.readinessProbe': { tcpSocket: { port: 8080 }, timeoutSeconds: 2, periodSeconds: 10, successThreshold: 1, failureThreshold: 3 },
    'spec.containers.0.env.1.valueFrom.fieldRef': { apiVersion: 'v1', fieldPath: 'metadata.name' },
  }, 'pod of Go zeros');
});
