// The API Priority and Fairness objects kube-apiserver 1.28 keeps at start
// (k8s.io/apiserver/pkg/apis/flowcontrol/bootstrap/default.go, flowcontrol/v1beta3 form): the
// mandatory exempt and catch-all priority levels and flow schemas, and the suggested ones. The
// API server enforces them (internal/flowcontrol/) once they are in the store, and this set in the
// meantime.

/** A bootstrap object: its name and spec. */
export interface BootstrapObject {
  readonly name: string;
  readonly spec: Record<string, unknown>;
}

const all = '*';
const systemMasters = 'system:masters';
const nodes = 'system:nodes';
const everyone = ['system:unauthenticated', 'system:authenticated'];
const controllerManager = 'system:kube-controller-manager';
const scheduler = 'system:kube-scheduler';

const groups = (...names: string[]) => names.map((name) => ({ kind: 'Group', group: { name } }));
const users = (...names: string[]) => names.map((name) => ({ kind: 'User', user: { name } }));
const kubeSystemAccounts = (...names: string[]) => names.map((name) => ({ kind: 'ServiceAccount', serviceAccount: { namespace: 'kube-system', name } }));
const resourceRule = (verbs: string[], apiGroups: string[], resources: string[], namespaces: string[], clusterScope: boolean) => ({ verbs, apiGroups, resources, ...(clusterScope ? { clusterScope } : {}), namespaces });
const everything = { resourceRules: [resourceRule([all], [all], [all], [all], true)], nonResourceRules: [{ verbs: [all], nonResourceURLs: [all] }] };

function flowSchema(name: string, level: string, matchingPrecedence: number, distinguisher: string, rule: Record<string, unknown>): BootstrapObject {
  return {
    name,
    spec: { priorityLevelConfiguration: { name: level }, matchingPrecedence, ...(distinguisher ? { distinguisherMethod: { type: distinguisher } } : {}), rules: [rule] },
  };
}

function limited(name: string, shares: number, lendablePercent: number, queues: number, handSize: number): BootstrapObject {
  return {
    name,
    spec: { type: 'Limited', limited: { nominalConcurrencyShares: shares, lendablePercent, limitResponse: { type: 'Queue', queuing: { queues, handSize, queueLengthLimit: 50 } } } },
  };
}

/** The mandatory priority levels: their specs are kept as given here (exempt's spec.exempt excepted). */
export const mandatoryPriorityLevels: readonly BootstrapObject[] = [
  { name: 'catch-all', spec: { type: 'Limited', limited: { nominalConcurrencyShares: 5, lendablePercent: 0, limitResponse: { type: 'Reject' } } } },
  { name: 'exempt', spec: { type: 'Exempt', exempt: { nominalConcurrencyShares: 0, lendablePercent: 0 } } },
];

/** The mandatory flow schemas: their specs are kept as given here. */
export const mandatoryFlowSchemas: readonly BootstrapObject[] = [
  flowSchema('exempt', 'exempt', 1, '', { subjects: groups(systemMasters), ...everything }),
  flowSchema('catch-all', 'catch-all', 10000, 'ByUser', { subjects: groups(...everyone), ...everything }),
];

/** The suggested priority levels: kept up to date unless their autoupdate-spec annotation says false. */
export const suggestedPriorityLevels: readonly BootstrapObject[] = [
  limited('system', 30, 33, 64, 6),
  limited('node-high', 40, 25, 64, 6),
  limited('leader-election', 10, 0, 16, 4),
  limited('workload-high', 40, 50, 128, 6),
  limited('workload-low', 100, 90, 128, 6),
  limited('global-default', 20, 50, 128, 6),
];

const leaseRule = resourceRule(['get', 'create', 'update'], ['coordination.k8s.io'], ['leases'], [all], false);

/** The suggested flow schemas, as the suggested priority levels. */
export const suggestedFlowSchemas: readonly BootstrapObject[] = [
  flowSchema('system-nodes', 'system', 500, 'ByUser', { subjects: groups(nodes), ...everything }),
  flowSchema('system-node-high', 'node-high', 400, 'ByUser', {
    subjects: groups(nodes),
    resourceRules: [resourceRule([all], [''], ['nodes', 'nodes/status'], [all], true), resourceRule([all], ['coordination.k8s.io'], ['leases'], [all], false)],
  }),
  flowSchema('probes', 'exempt', 2, '', { subjects: groups(...everyone), nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/healthz', '/readyz', '/livez'] }] }),
  flowSchema('system-leader-election', 'leader-election', 100, 'ByUser', { subjects: [...users(controllerManager, scheduler), ...kubeSystemAccounts(all)], resourceRules: [leaseRule] }),
  flowSchema('workload-leader-election', 'leader-election', 200, 'ByUser', {
    subjects: kubeSystemAccounts(all),
    resourceRules: [resourceRule(['get', 'create', 'update'], [''], ['endpoints', 'configmaps'], [all], false), leaseRule],
  }),
  flowSchema('endpoint-controller', 'workload-high', 150, 'ByUser', {
    subjects: [...users(controllerManager), ...kubeSystemAccounts('endpoint-controller', 'endpointslicemirroring-controller')],
    resourceRules: [resourceRule(['get', 'create', 'update'], [''], ['endpoints'], [all], false)],
  }),
  flowSchema('kube-controller-manager', 'workload-high', 800, 'ByNamespace', { subjects: users(controllerManager), ...everything }),
  flowSchema('kube-scheduler', 'workload-high', 800, 'ByNamespace', { subjects: users(scheduler), ...everything }),
  flowSchema('kube-system-service-accounts', 'workload-high', 900, 'ByNamespace', { subjects: kubeSystemAccounts(all), ...everything }),
  flowSchema('service-accounts', 'workload-low', 9000, 'ByUser', { subjects: groups('system:serviceaccounts'), ...everything }),
  flowSchema('global-default', 'global-default', 9900, 'ByUser', { subjects: groups(...everyone), ...everything }),
];
