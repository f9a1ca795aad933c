// Not a test: a measurement to run by hand. The time and size of a 10,000-pod PodList in
// Protobuf (encodeProtobuf) against JSON (JSON.stringify, and to a Buffer as a response sends it),
// and of decoding each back. Pods look like the ones a ReplicaSet and the kubelet leave behind.
//
// Usage: node --import tsx test/unit/apiserver/protobuf/measure-list-encoding.ts [pods] [runs]
import { decodeProtobuf, encodeProtobuf } from '../../../../internal/apiserver/protobuf/index.ts';

const t = '2026-11-26T10:00:00Z';

function pod(i: number): Record<string, unknown> {
  return {
    apiVersion: 'v1', kind: 'Pod',
    metadata: {
      name: `bench-pod-${i}`, namespace: 'default', uid: `0c4a3f2e-1111-2222-3333-${String(i).padStart(12, '0')}`, resourceVersion: String(1000 + i), creationTimestamp: t,
      labels: { app: 'bench', 'pod-template-hash': '5d8f7c9b4' }, annotations: { 'example.com/note': 'bench' },
      ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'bench-5d8f7c9b4', uid: 'aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee', controller: true, blockOwnerDeletion: true }],
      managedFields: [{ manager: 'kube-controller-manager', operation: 'Update', apiVersion: 'v1', time: t, fieldsType: 'FieldsV1', fieldsV1: { 'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } }, 'f:spec': { 'f:containers': { 'k:{"name":"main"}': { '.': {}, 'f:image': {} } } } } }],
    },
    spec: {
      containers: [{
        name: 'main', image: 'registry.k8s.io/pause:3.9', ports: [{ containerPort: 80, protocol: 'TCP' }],
        env: [{ name: 'A', value: 'b' }, { name: 'POD', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.name' } } }],
        resources: { requests: { cpu: '100m', memory: '64Mi' }, limits: { cpu: '1', memory: '128Mi' } },
        volumeMounts: [{ name: 'kube-api-access', mountPath: '/var/run/secrets/kubernetes.io/serviceaccount', readOnly: true }],
        terminationMessagePath: '/dev/termination-log', terminationMessagePolicy: 'File', imagePullPolicy: 'IfNotPresent',
      }],
      restartPolicy: 'Always', terminationGracePeriodSeconds: 30, dnsPolicy: 'ClusterFirst', serviceAccountName: 'default', serviceAccount: 'default', nodeName: 'node-1',
      securityContext: {}, schedulerName: 'default-scheduler', priority: 0, enableServiceLinks: true, preemptionPolicy: 'PreemptLowerPriority',
      tolerations: [{ key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 }],
      volumes: [{ name: 'kube-api-access', projected: { sources: [{ serviceAccountToken: { expirationSeconds: 3607, path: 'token' } }, { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } }], defaultMode: 420 } }],
    },
    status: {
      phase: 'Running', conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: t }], hostIP: '10.0.0.1', podIP: '10.244.0.5', podIPs: [{ ip: '10.244.0.5' }], startTime: t, qosClass: 'Burstable',
      containerStatuses: [{ name: 'main', state: { running: { startedAt: t } }, ready: true, restartCount: 0, image: 'registry.k8s.io/pause:3.9', imageID: 'sha256:abc', containerID: 'containerd://abc', started: true }],
    },
  };
}

const pods = Number(process.argv[2] ?? 10000);
const runs = Number(process.argv[3] ?? 9);
// Parsed from JSON, as the store hands objects over (flat strings, objects of one shape each).
const list = JSON.parse(JSON.stringify({ apiVersion: 'v1', kind: 'PodList', metadata: { resourceVersion: '99999' }, items: Array.from({ length: pods }, (_, i) => pod(i)) })) as Record<string, unknown>;

function measure(label: string, run: () => number): void {
  run();
  run();
  const ms: number[] = [];
  let bytes = 0;
  for (let r = 0; r < runs; r++) {
    const start = process.hrtime.bigint();
    bytes = run();
    ms.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  ms.sort((a, b) => a - b);
  console.log(`${label.padEnd(30)} median ${(ms[runs >> 1] as number).toFixed(1).padStart(7)} ms   min ${(ms[0] as number).toFixed(1).padStart(7)} ms   ${(bytes / 1e6).toFixed(2)} MB`);
}

console.log(`${pods} pods, ${runs} runs each`);
measure('JSON.stringify', () => JSON.stringify(list).length);
measure('JSON.stringify to a Buffer', () => Buffer.from(JSON.stringify(list)).length);
measure('encodeProtobuf', () => encodeProtobuf(list).length);
const json = Buffer.from(JSON.stringify(list));
const protobuf = encodeProtobuf(list);
measure('JSON.parse of the Buffer', () => (JSON.parse(json.toString('utf8')) as unknown, json.length));
measure('decodeProtobuf', () => (decodeProtobuf(protobuf), protobuf.length));
