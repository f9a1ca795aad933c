// The configuration compiled from FlowSchemas and PriorityLevelConfigurations as kube-apiserver
// 1.28's apf_controller digests them: where the v1.28 bootstrap objects send requests, matching
// order, dangling schemas, the mandatory objects supplied when missing, the nominal concurrency
// limits and the queuing defaults.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { compileConfiguration, type Configuration } from '../../../internal/flowcontrol/configuration.ts';
import type { RequestDigest } from '../../../internal/flowcontrol/types.ts';
import { mandatoryFlowSchemas, mandatoryPriorityLevels, suggestedFlowSchemas, suggestedPriorityLevels, type BootstrapObject } from '../../../internal/registry/flowcontrol/bootstrap-configuration.ts';

const stored = (b: BootstrapObject) => ({ metadata: { name: b.name, uid: `uid-${b.name}` }, spec: structuredClone(b.spec) });
const bootstrapSchemas = [...mandatoryFlowSchemas, ...suggestedFlowSchemas].map(stored);
const bootstrapLevels = [...mandatoryPriorityLevels, ...suggestedPriorityLevels].map(stored);
const bootstrap = () => compileConfiguration(bootstrapSchemas, bootstrapLevels, 600);

const authenticated = 'system:authenticated';
const user = (username: string, ...groups: string[]) => ({ username, groups: [...groups, authenticated] });
const kubeSystemAccount = (name: string) => user(`system:serviceaccount:kube-system:${name}`, 'system:serviceaccounts', 'system:serviceaccounts:kube-system');

function resource(who: RequestDigest['user'], over: Partial<NonNullable<RequestDigest['resource']>> = {}): RequestDigest {
  return { user: who, resource: { verb: 'list', apiGroup: '', resource: 'pods', subresource: '', namespace: 'default', name: '', ...over } };
}

function landing(config: Configuration, digest: RequestDigest): [string, string, string] {
  const c = config.classify(digest);
  return [c.flowSchema.name, c.priorityLevel.name, c.flowDistinguisher];
}

describe('the v1.28 bootstrap configuration', () => {
  const config = bootstrap();

  it('sends system:masters to exempt', () => {
    assert.deepEqual(landing(config, resource(user('admin', 'system:masters'))), ['exempt', 'exempt', '']);
  });

  it('sends a node to system-nodes, its own node and leases to system-node-high', () => {
    const node = user('system:node:n1', 'system:nodes');
    assert.deepEqual(landing(config, resource(node)), ['system-nodes', 'system', 'system:node:n1']);
    assert.deepEqual(landing(config, resource(node, { verb: 'patch', resource: 'nodes', subresource: 'status', namespace: '', name: 'n1' })), ['system-node-high', 'node-high', 'system:node:n1']);
    assert.deepEqual(landing(config, resource(node, { verb: 'update', apiGroup: 'coordination.k8s.io', resource: 'leases', namespace: 'kube-node-lease', name: 'n1' })), ['system-node-high', 'node-high', 'system:node:n1']);
  });

  it('sends kube-system service accounts to workload-high, by namespace', () => {
    assert.deepEqual(landing(config, resource(kubeSystemAccount('deployment-controller'), { namespace: 'team-a' })), ['kube-system-service-accounts', 'workload-high', 'team-a']);
    assert.deepEqual(landing(config, resource(kubeSystemAccount('namespace-controller'), { resource: 'namespaces', namespace: '' })), ['kube-system-service-accounts', 'workload-high', '']);
  });

  it('sends leader election to leader-election and the endpoint controller to workload-high', () => {
    const lease = { verb: 'update', apiGroup: 'coordination.k8s.io', resource: 'leases', namespace: 'kube-system', name: 'kube-scheduler' };
    assert.deepEqual(landing(config, resource(user('system:kube-scheduler'), lease)), ['system-leader-election', 'leader-election', 'system:kube-scheduler']);
    const endpoints = { verb: 'update', resource: 'endpoints', name: 'web' };
    assert.deepEqual(landing(config, resource(kubeSystemAccount('endpoint-controller'), endpoints)), ['endpoint-controller', 'workload-high', 'system:serviceaccount:kube-system:endpoint-controller']);
    assert.deepEqual(landing(config, resource(user('system:kube-controller-manager'))), ['kube-controller-manager', 'workload-high', 'default']);
  });

  it('sends other service accounts to workload-low and ordinary users to global-default, by user', () => {
    assert.deepEqual(landing(config, resource(user('system:serviceaccount:team-a:builder', 'system:serviceaccounts'))), ['service-accounts', 'workload-low', 'system:serviceaccount:team-a:builder']);
    assert.deepEqual(landing(config, resource(user('alice', 'dev'))), ['global-default', 'global-default', 'alice']);
  });

  it('sends unauthenticated health probes to exempt, other unauthenticated requests to global-default', () => {
    const anonymous = { username: 'system:anonymous', groups: ['system:unauthenticated'] };
    assert.deepEqual(landing(config, { user: anonymous, nonResource: { verb: 'get', path: '/healthz' } }), ['probes', 'exempt', '']);
    assert.deepEqual(landing(config, { user: anonymous, nonResource: { verb: 'get', path: '/readyz' } }), ['probes', 'exempt', '']);
    assert.deepEqual(landing(config, { user: anonymous, nonResource: { verb: 'get', path: '/version' } }), ['global-default', 'global-default', 'system:anonymous']);
  });

  it('falls back on catch-all for a request no schema matches', () => {
    const ungrouped = { username: 'odd', groups: [] };
    const c = config.classify({ user: ungrouped, nonResource: { verb: 'get', path: '/version' } });
    assert.equal(c.flowSchema.name, 'catch-all');
    assert.equal(c.priorityLevel.name, 'catch-all');
    assert.equal(c.flowDistinguisher, '', 'catch-all rejects: no queues, no flows');
  });

  it('splits 600 seats by nominal shares as kube does (shares sum to 245)', () => {
    const limits = Object.fromEntries([...config.priorityLevels.values()].map((l) => [l.name, l.concurrencyLimit]));
    assert.deepEqual(limits, { 'catch-all': 13, exempt: 0, system: 74, 'node-high': 98, 'leader-election': 25, 'workload-high': 98, 'workload-low': 245, 'global-default': 49 });
  });

  it('keeps the levels queuing as configured, catch-all without queues', () => {
    assert.deepEqual(config.priorityLevels.get('workload-low')?.queuing, { queues: 128, handSize: 6, queueLengthLimit: 50 });
    assert.equal(config.priorityLevels.get('catch-all')?.queuing, null);
    assert.equal(config.priorityLevels.get('exempt')?.exempt, true);
    assert.equal(config.priorityLevels.get('global-default')?.uid, 'uid-global-default');
  });

  it('reports no schema dangling', () => {
    assert.equal(config.dangling.size, bootstrapSchemas.length);
    assert.ok([...config.dangling.values()].every((d) => !d));
  });
});

describe('matching order', () => {
  const level = { metadata: { name: 'mine' }, spec: { type: 'Limited', limited: { nominalConcurrencyShares: 10, limitResponse: { type: 'Reject' } } } };
  const everyone = [{ subjects: [{ kind: 'Group', group: { name: '*' } }], nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }] }];
  const schema = (name: string, matchingPrecedence?: number) => ({ metadata: { name }, spec: { priorityLevelConfiguration: { name: 'mine' }, ...(matchingPrecedence ? { matchingPrecedence } : {}), rules: everyone } });

  it('orders by matchingPrecedence, then name; 1000 when unset; mandatory schemas first and last', () => {
    const config = compileConfiguration([schema('b', 500), schema('a', 500), schema('z', 20), schema('default')], [level], 100);
    assert.deepEqual(config.flowSchemas.map((s) => s.name), ['exempt', 'z', 'a', 'b', 'default', 'catch-all']);
    assert.equal(config.flowSchemas[4]?.matchingPrecedence, 1000);
    assert.equal(config.classify({ user: { username: 'u', groups: [] }, nonResource: { verb: 'get', path: '/' } }).flowSchema.name, 'z');
  });

  it('skips a dangling schema and reports it', () => {
    const lost = { metadata: { name: 'lost' }, spec: { priorityLevelConfiguration: { name: 'gone' }, matchingPrecedence: 5, rules: everyone } };
    const config = compileConfiguration([lost, schema('kept', 50)], [level], 100);
    assert.deepEqual([...config.dangling], [['lost', true], ['kept', false]]);
    assert.ok(!config.flowSchemas.some((s) => s.name === 'lost'));
    assert.equal(config.classify({ user: { username: 'u', groups: [] }, nonResource: { verb: 'get', path: '/' } }).flowSchema.name, 'kept');
  });
});

describe('the mandatory objects', () => {
  it('are supplied when the store has none', () => {
    const config = compileConfiguration([], [], 600);
    assert.deepEqual(config.flowSchemas.map((s) => s.name), ['exempt', 'catch-all']);
    assert.deepEqual([...config.priorityLevels.keys()].sort(), ['catch-all', 'exempt']);
    assert.equal(config.priorityLevels.get('catch-all')?.concurrencyLimit, 600);
    assert.deepEqual(landing(config, resource(user('alice'))), ['catch-all', 'catch-all', '']);
    assert.deepEqual(landing(config, resource(user('root', 'system:masters'))), ['exempt', 'exempt', '']);
  });

  it('stand in for a stored mandatory schema whose level is missing, which is reported dangling', () => {
    const catchAll = stored(mandatoryFlowSchemas[1]!);
    const config = compileConfiguration([catchAll], [], 600);
    assert.equal(config.dangling.get('catch-all'), true);
    const last = config.flowSchemas.at(-1);
    assert.equal(last?.name, 'catch-all');
    assert.equal(last?.uid, '', 'the imagined schema, not the stored one');
  });
});

describe('priority levels', () => {
  it('apply the v1beta3 defaults: 30 shares, 64 queues, hand size 8, 50 long', () => {
    const bare = { metadata: { name: 'bare' }, spec: { type: 'Limited', limited: { limitResponse: { type: 'Queue', queuing: {} } } } };
    const level = compileConfiguration([], [bare], 600).priorityLevels.get('bare');
    assert.equal(level?.nominalConcurrencyShares, 30);
    assert.deepEqual(level?.queuing, { queues: 64, handSize: 8, queueLengthLimit: 50 });
    assert.equal(level?.concurrencyLimit, Math.ceil((600 * 30) / 35));
  });

  it('ignores a broken level, leaving its schemas dangling', () => {
    const misnamed = { metadata: { name: 'fake-exempt' }, spec: { type: 'Exempt', exempt: {} } };
    const mismatched = { metadata: { name: 'half' }, spec: { type: 'Limited', limited: { limitResponse: { type: 'Queue' } } } };
    const schema = { metadata: { name: 's' }, spec: { priorityLevelConfiguration: { name: 'fake-exempt' }, rules: [] } };
    const config = compileConfiguration([schema], [misnamed, mismatched], 600);
    assert.ok(!config.priorityLevels.has('fake-exempt'));
    assert.ok(!config.priorityLevels.has('half'));
    assert.equal(config.dangling.get('s'), true);
  });

  it('refuses two objects of one name (a store never holds them)', () => {
    const level = stored(suggestedPriorityLevels[0]!);
    assert.throws(() => compileConfiguration([], [level, level], 600));
  });
});
