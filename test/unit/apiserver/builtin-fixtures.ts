// One valid object of every built-in kind, as a user would write it: what the bad-input suite
// starts from and what the read-back through kubectl and the Python client checks.
import { builtinDeclarations } from '../../../internal/registry/resource-registry.ts';
import type { ResourceDeclaration } from '../../../internal/registry/schema/declaration.ts';

type Json = Record<string, unknown>;

const labels = { app: 'fixture' };
const container = { name: 'main', image: 'nginx:1.25', ports: [{ containerPort: 80 }], resources: { requests: { cpu: '100m', memory: '64Mi' }, limits: { cpu: '1', memory: '128Mi' } } };
const podTemplate = { metadata: { labels }, spec: { containers: [container] } };
const eventTime = '2026-11-26T10:00:00.000000Z';

/** The fixture of each built-in kind, by `<group>/<kind>` ('' for core), or `<group>/<version>/<kind>` where the versions differ. */
const fixtures: Record<string, Json> = {
  '/Namespace': { metadata: { name: 'fixture-ns' } },
  '/ConfigMap': { metadata: { name: 'fixture' }, data: { key: 'value' }, binaryData: { bin: 'aGVsbG8=' } },
  '/Secret': { metadata: { name: 'fixture' }, type: 'Opaque', data: { password: 'c2VjcmV0' }, stringData: { user: 'admin' } },
  '/ServiceAccount': { metadata: { name: 'fixture' }, automountServiceAccountToken: false },
  '/Service': { metadata: { name: 'fixture' }, spec: { selector: labels, ports: [{ name: 'http', port: 80, targetPort: 8080 }] } },
  '/Endpoints': { metadata: { name: 'fixture' }, subsets: [{ addresses: [{ ip: '10.0.0.1' }], ports: [{ name: 'http', port: 8080 }] }] },
  '/Pod': { metadata: { name: 'fixture', labels }, spec: { containers: [container], restartPolicy: 'Always' } },
  '/Node': { metadata: { name: 'fixture-node' }, spec: { unschedulable: false }, status: { capacity: { cpu: '2', memory: '4Gi' } } },
  '/Binding': { metadata: { name: 'fixture' }, target: { apiVersion: 'v1', kind: 'Node', name: 'fixture-node' } },
  '/Event': { metadata: { name: 'fixture.1' }, involvedObject: { kind: 'Pod', namespace: 'default', name: 'fixture' }, reason: 'Started', message: 'started', type: 'Normal', source: { component: 'fixture' }, count: 1, firstTimestamp: '2026-11-26T10:00:00Z', lastTimestamp: '2026-11-26T10:00:00Z' },
  '/LimitRange': { metadata: { name: 'fixture' }, spec: { limits: [{ type: 'Container', default: { cpu: '500m' }, defaultRequest: { cpu: '100m' }, max: { cpu: '2' } }] } },
  '/ResourceQuota': { metadata: { name: 'fixture' }, spec: { hard: { pods: '10', 'requests.cpu': '4' } } },
  '/PersistentVolume': { metadata: { name: 'fixture-pv' }, spec: { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], hostPath: { path: '/tmp/fixture' }, persistentVolumeReclaimPolicy: 'Retain' } },
  '/PersistentVolumeClaim': { metadata: { name: 'fixture' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } },
  'apps/Deployment': { metadata: { name: 'fixture' }, spec: { replicas: 2, selector: { matchLabels: labels }, template: podTemplate } },
  'apps/ReplicaSet': { metadata: { name: 'fixture' }, spec: { replicas: 1, selector: { matchLabels: labels }, template: podTemplate } },
  'apps/StatefulSet': { metadata: { name: 'fixture' }, spec: { replicas: 1, serviceName: 'fixture', selector: { matchLabels: labels }, template: podTemplate } },
  'apps/DaemonSet': { metadata: { name: 'fixture' }, spec: { selector: { matchLabels: labels }, template: podTemplate } },
  'events/Event': { metadata: { name: 'fixture.2' }, eventTime, reportingController: 'example.com/fixture', reportingInstance: 'fixture-1', action: 'Create', reason: 'Created', note: 'created', type: 'Normal', regarding: { kind: 'Pod', namespace: 'default', name: 'fixture' } },
  'coordination/Lease': { metadata: { name: 'fixture' }, spec: { holderIdentity: 'fixture-1', leaseDurationSeconds: 15, acquireTime: eventTime, renewTime: eventTime, leaseTransitions: 0 } },
  '/PodTemplate': { metadata: { name: 'fixture' }, template: podTemplate },
  // A P-256 request for CN=fixture made by openssl (PEM, base64 as JSON carries bytes).
  'certificates/CertificateSigningRequest': { metadata: { name: 'fixture' }, spec: { request: 'LS0tLS1CRUdJTiBDRVJUSUZJQ0FURSBSRVFVRVNULS0tLS0KTUlITk1IUUNBUUF3RWpFUU1BNEdBMVVFQXd3SFptbDRkSFZ5WlRCWk1CTUdCeXFHU000OUFnRUdDQ3FHU000OQpBd0VIQTBJQUJCamxtNXRXRTZ6Vmo4MGN0Z3hnN1YwQW80eHBYN0tGSVowakZNaHZmN2lTWnRxTGdYem5NRkZGCkxIeDJpNUs4UlgzR0ZHTHZZZ1R3YitQWDEzV3lHSytnQURBS0JnZ3Foa2pPUFFRREFnTkpBREJHQWlFQXpyTi8Kb2YvZzdCZE1WTjdRc2VYZU80bWRFNFN3ZVRqTGkzeU1ZRFc3a0RzQ0lRQ1BsNmxXcUxsNnRYdDUyR2QrZWhBTwp6OUdoMmpreGdUR0RqVlNRTGY2T09nPT0KLS0tLS1FTkQgQ0VSVElGSUNBVEUgUkVRVUVTVC0tLS0tCg==', signerName: 'example.com/fixture', usages: ['digital signature', 'client auth'], expirationSeconds: 3600 } },
  '/ReplicationController': { metadata: { name: 'fixture' }, spec: { replicas: 1, selector: labels, template: podTemplate } },
  // Read-only (the server answers it): read back by this name, never written.
  '/ComponentStatus': { metadata: { name: 'etcd-0' } },
  'apps/ControllerRevision': { metadata: { name: 'fixture' }, data: { spec: { template: podTemplate } }, revision: 1 },
  'batch/Job': { metadata: { name: 'fixture' }, spec: { backoffLimit: 4, template: { spec: { containers: [container], restartPolicy: 'Never' } } } },
  'batch/CronJob': { metadata: { name: 'fixture' }, spec: { schedule: '*/5 * * * *', timeZone: 'Etc/UTC', jobTemplate: { spec: { template: { spec: { containers: [container], restartPolicy: 'OnFailure' } } } } } },
  'rbac.authorization/Role': { metadata: { name: 'fixture' }, rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get', 'list'] }] },
  'rbac.authorization/ClusterRole': { metadata: { name: 'fixture' }, rules: [{ apiGroups: ['apps'], resources: ['deployments'], verbs: ['get'] }, { nonResourceURLs: ['/healthz'], verbs: ['get'] }] },
  'rbac.authorization/RoleBinding': { metadata: { name: 'fixture' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'fixture' }, subjects: [{ kind: 'ServiceAccount', name: 'default', namespace: 'default' }, { kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'jane' }] },
  'rbac.authorization/ClusterRoleBinding': { metadata: { name: 'fixture' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'fixture' }, subjects: [{ kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: 'devs' }] },
  'networking/Ingress': { metadata: { name: 'fixture' }, spec: { ingressClassName: 'fixture', rules: [{ host: 'foo.example.com', http: { paths: [{ path: '/', pathType: 'Prefix', backend: { service: { name: 'fixture', port: { number: 80 } } } }] } }], tls: [{ hosts: ['foo.example.com'], secretName: 'fixture-tls' }] } },
  'networking/IngressClass': { metadata: { name: 'fixture' }, spec: { controller: 'example.com/ingress-controller' } },
  'networking/NetworkPolicy': { metadata: { name: 'fixture' }, spec: { podSelector: { matchLabels: labels }, ingress: [{ from: [{ podSelector: {} }, { ipBlock: { cidr: '10.0.0.0/8', except: ['10.1.0.0/16'] } }], ports: [{ port: 80 }] }] } },
  'policy/PodDisruptionBudget': { metadata: { name: 'fixture' }, spec: { minAvailable: 1, selector: { matchLabels: labels } } },
  'storage/StorageClass': { metadata: { name: 'fixture' }, provisioner: 'example.com/fixture', parameters: { type: 'fast' }, allowVolumeExpansion: true },
  'storage/CSIDriver': { metadata: { name: 'fixture.example.com' }, spec: { attachRequired: false, podInfoOnMount: true } },
  'storage/CSINode': { metadata: { name: 'fixture-node' }, spec: { drivers: [{ name: 'fixture.example.com', nodeID: 'node-1', topologyKeys: ['topology.kubernetes.io/zone'], allocatable: { count: 10 } }] } },
  'storage/VolumeAttachment': { metadata: { name: 'fixture' }, spec: { attacher: 'fixture.example.com', nodeName: 'node-1', source: { persistentVolumeName: 'pv-1' } } },
  'storage/CSIStorageCapacity': { metadata: { name: 'fixture' }, storageClassName: 'standard', capacity: '10Gi', nodeTopology: { matchLabels: { 'topology.kubernetes.io/zone': 'a' } } },
  'scheduling/PriorityClass': { metadata: { name: 'fixture' }, value: 1000, description: 'fixture' },
  'admissionregistration/ValidatingWebhookConfiguration': {
    metadata: { name: 'fixture' },
    webhooks: [{ name: 'check.example.com', clientConfig: { url: 'https://webhook.example.com/check' }, rules: [{ operations: ['CREATE'], apiGroups: ['fixture.example.com'], apiVersions: ['v1'], resources: ['widgets'] }], sideEffects: 'None', admissionReviewVersions: ['v1'] }],
  },
  'admissionregistration/MutatingWebhookConfiguration': {
    metadata: { name: 'fixture' },
    webhooks: [{ name: 'mutate.example.com', clientConfig: { service: { namespace: 'default', name: 'hook' } }, rules: [{ operations: ['CREATE'], apiGroups: ['fixture.example.com'], apiVersions: ['v1'], resources: ['gadgets'] }], sideEffects: 'NoneOnDryRun', admissionReviewVersions: ['v1', 'v1beta1'], reinvocationPolicy: 'IfNeeded' }],
  },
  'admissionregistration/ValidatingAdmissionPolicy': {
    metadata: { name: 'fixture' },
    spec: {
      paramKind: { apiVersion: 'v1', kind: 'ConfigMap' },
      matchConstraints: { resourceRules: [{ operations: ['CREATE'], apiGroups: ['fixture.example.com'], apiVersions: ['v1'], resources: ['widgets'] }] },
      validations: [{ expression: 'object.spec.size <= int(params.data.maxSize)', message: 'too big', reason: 'Forbidden' }],
    },
  },
  'admissionregistration/ValidatingAdmissionPolicyBinding': {
    metadata: { name: 'fixture' },
    spec: { policyName: 'fixture', paramRef: { name: 'limits', namespace: 'default', parameterNotFoundAction: 'Allow' }, validationActions: ['Deny'] },
  },
  'node/RuntimeClass': { metadata: { name: 'fixture' }, handler: 'runc', overhead: { podFixed: { cpu: '100m' } } },
  'discovery/EndpointSlice': { metadata: { name: 'fixture' }, addressType: 'IPv4', endpoints: [{ addresses: ['10.0.0.1'], conditions: { ready: true } }], ports: [{ name: 'http', port: 80, protocol: 'TCP' }] },
  'autoscaling/v2/HorizontalPodAutoscaler': {
    metadata: { name: 'fixture' },
    spec: {
      scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'fixture' }, minReplicas: 1, maxReplicas: 5,
      metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 70 } } }, { type: 'Pods', pods: { metric: { name: 'qps' }, target: { type: 'AverageValue', averageValue: '10' } } }],
      behavior: { scaleDown: { stabilizationWindowSeconds: 60, policies: [{ type: 'Percent', value: 50, periodSeconds: 30 }] } },
    },
  },
  'autoscaling/v1/HorizontalPodAutoscaler': { metadata: { name: 'fixture' }, spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'fixture' }, minReplicas: 1, maxReplicas: 5, targetCPUUtilizationPercentage: 70 } },
  'flowcontrol.apiserver/FlowSchema': {
    metadata: { name: 'fixture' },
    spec: { priorityLevelConfiguration: { name: 'fixture' }, matchingPrecedence: 500, distinguisherMethod: { type: 'ByUser' }, rules: [{ subjects: [{ kind: 'Group', group: { name: 'fixture-group' } }], resourceRules: [{ verbs: ['get'], apiGroups: [''], resources: ['pods'], namespaces: ['default'] }] }] },
  },
  'flowcontrol.apiserver/v1beta3/PriorityLevelConfiguration': { metadata: { name: 'fixture' }, spec: { type: 'Limited', limited: { nominalConcurrencyShares: 10, lendablePercent: 20, limitResponse: { type: 'Queue', queuing: { queues: 16, handSize: 4, queueLengthLimit: 50 } } } } },
  'flowcontrol.apiserver/v1beta2/PriorityLevelConfiguration': { metadata: { name: 'fixture' }, spec: { type: 'Limited', limited: { assuredConcurrencyShares: 10, limitResponse: { type: 'Reject' } } } },
  // The review kinds are create-only and store nothing: their fixtures are what a client sends.
  'authentication/SelfSubjectReview': { metadata: {} },
  'authentication/TokenReview': { metadata: {}, spec: { token: 'fixture-token' } },
  'authorization/SubjectAccessReview': { metadata: {}, spec: { user: 'jane', resourceAttributes: { namespace: 'default', verb: 'get', resource: 'pods' } } },
  'authorization/LocalSubjectAccessReview': { metadata: { namespace: 'default' }, spec: { user: 'jane', resourceAttributes: { namespace: 'default', verb: 'get', resource: 'pods' } } },
  'authorization/SelfSubjectAccessReview': { metadata: {}, spec: { nonResourceAttributes: { path: '/healthz', verb: 'get' } } },
  'authorization/SelfSubjectRulesReview': { metadata: {}, spec: { namespace: 'default' } },
  'apiextensions/CustomResourceDefinition': {
    metadata: { name: 'fixtures.fixture.example.com' },
    spec: {
      group: 'fixture.example.com', scope: 'Namespaced', names: { plural: 'fixtures', kind: 'Fixture' },
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { size: { type: 'integer' } } } } } } }],
    },
  },
  'apiregistration/APIService': { metadata: { name: 'v1.fixture.example.com' }, spec: { group: 'fixture.example.com', version: 'v1', groupPriorityMinimum: 1000, versionPriority: 15, service: { namespace: 'default', name: 'fixture', port: 443 }, insecureSkipTLSVerify: true } },
};

/**
 * The name an object a test calls `name` is stored under: the name itself, except for an
 * APIService, whose name must be `<version>.<group>`, and a CustomResourceDefinition, whose name
 * must be `<plural>.<group>` (their fixtures' specs follow the name).
 */
export function storedName(decl: ResourceDeclaration, name: string): string {
  return (decl.group === 'apiregistration' && decl.kind === 'APIService') || (decl.group === 'apiextensions' && decl.kind === 'CustomResourceDefinition') ? `${name}.fixture.example.com` : name;
}

/** The fixture of a declaration stored under the name a test calls `name` (see storedName). */
export function fixtureNamed(decl: ResourceDeclaration, name: string): Json {
  const fixture = fixtureOf(decl) as Json;
  const stored = storedName(decl, name);
  if (stored !== name && decl.kind === 'APIService') fixture.spec = { ...(fixture.spec as Json), version: name };
  if (stored !== name && decl.kind === 'CustomResourceDefinition') {
    const spec = fixture.spec as Json;
    fixture.spec = { ...spec, names: { ...(spec.names as Json), plural: name } };
  }
  return { ...fixture, metadata: { ...(fixture.metadata as Json), name: stored } };
}

/** A fresh copy of the fixture of a declaration, or undefined if none was written for it. */
export function fixtureOf(decl: ResourceDeclaration): Json | undefined {
  // A kind served at two versions of one group has a fixture per version.
  const fixture = fixtures[`${decl.group}/${decl.version}/${decl.kind}`] ?? fixtures[`${decl.group}/${decl.kind}`];
  return fixture === undefined ? undefined : (structuredClone(fixture) as Json);
}

/** The built-in declarations that have no fixture (a new kind must add one). */
export function declarationsWithoutFixture(): string[] {
  return builtinDeclarations.filter((d) => fixtureOf(d) === undefined).map((d) => `${d.group}/${d.kind}`);
}
