// Every built-in kind survives JSON → Protobuf → JSON unchanged: the object as orch stores it
// (read back after create, defaults applied), and its List. The one difference allowed is Go's:
// a zero in a non-pointer omitempty field is not on the wire, so orch's stored zeros that kube's
// JSON would not show either are dropped; each such field is named below.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { builtinDeclarations, servedGroup } from '../../../../internal/registry/resource-registry.ts';
import type { ResourceDeclaration } from '../../../../internal/registry/schema/declaration.ts';
import { decodeProtobuf, encodeProtobuf, hasProtobuf } from '../../../../internal/apiserver/protobuf/index.ts';
import { fixtureNamed, fixtureOf } from '../builtin-fixtures.ts';
import { everythingServed, startTestServer, type TestServer } from '../harness.ts';
import { withoutPaths, zerosDropped } from './go-zeros.ts';

type Json = Record<string, unknown>;

let s: TestServer;
before(async () => {
  s = await startTestServer({ serving: everythingServed });
});
after(async () => {
  await s.close();
});

function apiVersionOf(decl: ResourceDeclaration): string {
  const group = servedGroup(decl, 'k8s.io');
  return group === '' ? decl.version : `${group}/${decl.version}`;
}

function collectionPath(decl: ResourceDeclaration): string {
  const group = servedGroup(decl, 'k8s.io');
  const prefix = group === '' ? `/api/${decl.version}` : `/apis/${group}/${decl.version}`;
  return decl.namespaced ? `${prefix}/namespaces/default/${decl.plural}` : `${prefix}/${decl.plural}`;
}

const allows = (decl: ResourceDeclaration, verb: 'create' | 'get' | 'list'): boolean => decl.verbs === undefined || decl.verbs.includes(verb);

/**
 * The zeros orch stores where Go's JSON omits them (kind → paths): a client wrote them (the
 * fixture's `unschedulable: false`).
 */
const zerosGoOmits: Record<string, readonly string[]> = {
  Node: ['spec.unschedulable'],
  NodeList: ['items[0].spec.unschedulable'],
  ComponentStatusList: ['metadata.resourceVersion'],
};

/** JSON → Protobuf → JSON; the result must equal the input (key order aside) but for the zeros Go omits. */

function assertRoundTrip(object: Json): void {
  const decoded = decodeProtobuf(encodeProtobuf(object));
  const dropped = zerosDropped(object, decoded);
  assert.deepEqual(decoded, withoutPaths(object, dropped));
  assert.deepEqual(dropped, zerosGoOmits[String(object.kind)] ?? [], 'only the zeros Go omits are dropped');
}

for (const decl of builtinDeclarations) {
  describe(`${decl.kind} (${apiVersionOf(decl)})`, () => {
    const base = collectionPath(decl);
    const name = `round-trip-${decl.group === '' ? 'core' : decl.group}-${decl.version}`.replace(/\./g, '-');

    test('has a Protobuf message, as in kube-apiserver', () => {
      assert.equal(hasProtobuf(apiVersionOf(decl), decl.kind), true);
      if (allows(decl, 'list')) assert.equal(hasProtobuf(apiVersionOf(decl), `${decl.kind}List`), true);
    });

    test('the stored object round-trips through Protobuf', async () => {
      const fixture = fixtureOf(decl) as Json;
      let stored: Json;
      if (!allows(decl, 'create')) {
        // Read-only (the server answers it): its fixture names one to read.
        stored = (await s.client.call('GET', `${base}/${String((fixture.metadata as Json).name)}`)).json as Json;
      } else {
        // A review's metadata must stay empty (kube refuses a name): its fixture is sent as written.
        const review = (fixture.metadata as Json).name === undefined;
        const body = { apiVersion: apiVersionOf(decl), kind: decl.kind, ...(review ? fixture : fixtureNamed(decl, name)) };
        const created = await s.client.call('POST', base, { body });
        assert.equal(created.status, 201, created.text);
        if (!allows(decl, 'get')) {
          // Create-only (the legacy bindings): the body and the Status answered.
          assertRoundTrip(body);
          assertRoundTrip(created.json as Json);
          return;
        }
        stored = (await s.client.call('GET', `${base}/${String(((created.json as Json).metadata as Json).name)}`)).json as Json;
      }
      assert.equal(stored.kind, decl.kind, JSON.stringify(stored));
      assertRoundTrip(stored);
    });

    test('its List round-trips through Protobuf', { skip: !allows(decl, 'list') && 'not listable' }, async () => {
      const list = await s.client.call('GET', base);
      assert.equal(list.status, 200, list.text);
      assertRoundTrip(list.json as Json);
    });
  });
}

test('a Pod with most of its fields set, as controllers and the kubelet write it, round-trips as stored', async () => {
  const t = '2026-11-26T10:00:00Z';
  const pod = {
    apiVersion: 'v1', kind: 'Pod',
    metadata: {
      name: 'rich', labels: { app: 'rich' }, annotations: { note: 'é' }, finalizers: ['example.com/f'],
      ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'rs', uid: '6f2a0c1e-0000-4000-8000-000000000001', controller: true, blockOwnerDeletion: false }],
    },
    spec: {
      initContainers: [{ name: 'init', image: 'busybox', command: ['sh', '-c', 'true'], restartPolicy: 'Always' }],
      containers: [{
        name: 'main', image: 'nginx', args: ['-g', 'daemon off;'], workingDir: '/w',
        ports: [{ name: 'http', containerPort: 80, protocol: 'TCP' }, { containerPort: 53, protocol: 'UDP', hostPort: 5353 }],
        env: [{ name: 'A', value: '' }, { name: 'B', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } }, { name: 'C', valueFrom: { resourceFieldRef: { resource: 'limits.cpu', divisor: '1m' } } }],
        envFrom: [{ configMapRef: { name: 'cm', optional: false } }],
        resources: { requests: { cpu: '250m', memory: '64Mi' }, limits: { cpu: '1', memory: '128Mi' } },
        volumeMounts: [{ name: 'data', mountPath: '/data', readOnly: true, mountPropagation: 'None' }],
        livenessProbe: { httpGet: { path: '/healthz', port: 'http', scheme: 'HTTP', httpHeaders: [{ name: 'X', value: 'y' }] }, initialDelaySeconds: 3, periodSeconds: 10, failureThreshold: 3, terminationGracePeriodSeconds: 0 },
        readinessProbe: { tcpSocket: { port: 80 }, timeoutSeconds: 1 },
        startupProbe: { exec: { command: ['true'] } },
        lifecycle: { preStop: { exec: { command: ['sleep', '1'] } } },
        securityContext: { runAsUser: 0, runAsNonRoot: false, readOnlyRootFilesystem: true, allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] }, seccompProfile: { type: 'RuntimeDefault' } },
        stdin: true, tty: true,
      }],
      volumes: [
        { name: 'data', emptyDir: { medium: 'Memory', sizeLimit: '1Gi' } },
        { name: 'cfg', configMap: { name: 'cm', items: [{ key: 'a', path: 'a', mode: 0 }], defaultMode: 420, optional: true } },
        { name: 'sec', secret: { secretName: 's', defaultMode: 256 } },
        { name: 'proj', projected: { sources: [{ serviceAccountToken: { path: 'token', expirationSeconds: 3600 } }, { downwardAPI: { items: [{ path: 'labels', fieldRef: { fieldPath: 'metadata.labels' } }] } }] } },
        { name: 'host', hostPath: { path: '/var/log', type: '' } },
      ],
      restartPolicy: 'Always', terminationGracePeriodSeconds: 0, activeDeadlineSeconds: 600, dnsPolicy: 'ClusterFirst', nodeSelector: { 'kubernetes.io/os': 'linux' },
      serviceAccountName: 'default', automountServiceAccountToken: false, hostNetwork: true, shareProcessNamespace: false,
      securityContext: { fsGroup: 2000, supplementalGroups: [1, 2], sysctls: [{ name: 'net.core.somaxconn', value: '1024' }] },
      affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'zone', operator: 'In', values: ['a', 'b'] }] }] } } },
      tolerations: [{ key: 'k', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 0 }],
      hostAliases: [{ ip: '10.0.0.1', hostnames: ['a.local'] }], priorityClassName: '', priority: 0, enableServiceLinks: false,
      dnsConfig: { nameservers: ['1.1.1.1'], options: [{ name: 'ndots', value: '2' }] }, readinessGates: [{ conditionType: 'example.com/ready' }],
      topologySpreadConstraints: [{ maxSkew: 1, topologyKey: 'zone', whenUnsatisfiable: 'DoNotSchedule', labelSelector: { matchLabels: { app: 'rich' } }, minDomains: 1 }],
      schedulingGates: [{ name: 'example.com/gate' }], os: { name: 'linux' }, hostUsers: false,
    },
    status: { phase: 'Pending', conditions: [{ type: 'PodScheduled', status: 'False', lastTransitionTime: t, reason: 'SchedulingGated' }] },
  };
  const created = await s.client.call('POST', '/api/v1/namespaces/default/pods', { body: pod });
  assert.equal(created.status, 201, created.text);
  const stored = (await s.client.call('GET', '/api/v1/namespaces/default/pods/rich')).json as Json;
  const decoded = decodeProtobuf(encodeProtobuf(stored));
  const dropped = zerosDropped(stored, decoded);
  assert.deepEqual(decoded, withoutPaths(stored, dropped));
  // Zeros the client wrote in non-pointer fields (Go's JSON does not show them either); the pointer zeros stay.
  assert.deepEqual(dropped, ['spec.containers[0].env[0].value', 'spec.priorityClassName']);
});

describe('the other kinds orch answers with, as it answers them', () => {
  test('discovery documents (APIVersions, APIGroupList, APIGroup, APIResourceList, APIGroupDiscoveryList)', async () => {
    for (const path of ['/api', '/apis', '/apis/apps', '/api/v1', '/apis/apps/v1']) {
      const r = await s.client.call('GET', path);
      assert.equal(r.status, 200, `${path}: ${r.text}`);
      assertRoundTrip({ apiVersion: 'v1', ...(r.json as Json) });
    }
    const aggregated = await s.client.call('GET', '/apis', { headers: { accept: 'application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList' } });
    assert.equal((aggregated.json as Json).kind, 'APIGroupDiscoveryList', aggregated.text);
    assertRoundTrip(aggregated.json as Json);
  });

  test('a Status answering an error', async () => {
    const r = await s.client.call('GET', '/api/v1/namespaces/default/pods/absent');
    assert.equal(r.status, 404);
    assertRoundTrip(r.json as Json);
  });

  test('DeleteOptions, Scale and Eviction', async () => {
    assertRoundTrip({ apiVersion: 'v1', kind: 'DeleteOptions', gracePeriodSeconds: 0, propagationPolicy: 'Foreground', preconditions: { uid: 'u', resourceVersion: '1' }, dryRun: ['All'] });
    assertRoundTrip({ apiVersion: 'apps/v1', kind: 'DeleteOptions', orphanDependents: false });
    const scale = await s.client.call('GET', `/apis/apps/v1/namespaces/default/deployments/round-trip-apps-v1/scale`);
    assert.equal(scale.status, 200, scale.text);
    assertRoundTrip(scale.json as Json);
    assertRoundTrip({ apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'p', namespace: 'default' }, deleteOptions: { gracePeriodSeconds: 30 } });
  });
});
