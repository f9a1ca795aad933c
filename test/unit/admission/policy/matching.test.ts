// matchConstraints and matchResources as kube's validatingadmissionpolicy/matching decides them:
// exclude rules win, resourceNames narrow, Equivalent matches another version of the resource
// (the policy then sees it as that version), selectors filter before rules.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { GroupVersionResource } from '../../../../internal/admission/attributes.ts';
import { matchCriteria, type MatchingDeps } from '../../../../internal/admission/policy/policy-matching.ts';
import type { EquivalentResources } from '../../../../internal/admission/webhook/equivalents.ts';
import { memoryObjects } from '../webhook/fixtures.ts';
import { deploymentAttributes, prodNamespace } from './fixtures.ts';

const v1: GroupVersionResource = { group: 'apps', version: 'v1', resource: 'deployments' };
const beta: GroupVersionResource = { group: 'extensions', version: 'v1beta1', resource: 'deployments' };
const mapper: EquivalentResources = {
  equivalentResourcesFor: () => [v1, beta],
  kindFor: (r) => ({ group: r.group, version: r.version, kind: 'Deployment' }),
  convert: (o) => o,
};
const deps: MatchingDeps = { objects: memoryObjects([prodNamespace]), equivalents: mapper };
const rule = (extra: Record<string, unknown> = {}) => ({ operations: ['CREATE'], apiGroups: ['apps'], apiVersions: ['v1'], resources: ['deployments'], scope: '*', ...extra });
const base = { namespaceSelector: {}, objectSelector: {}, matchPolicy: 'Equivalent' };

test('resource rules, resourceNames and exclude rules', async () => {
  assert.deepEqual(await matchCriteria({ ...base, resourceRules: [rule()] }, deploymentAttributes(1), deps), { matches: true, resource: v1, kind: { group: 'apps', version: 'v1', kind: 'Deployment' } });
  assert.deepEqual(await matchCriteria({ ...base, resourceRules: [rule({ resourceNames: ['other'] })] }, deploymentAttributes(1), deps), { matches: false });
  assert.equal('matches' in (await matchCriteria({ ...base, resourceRules: [rule({ resourceNames: ['web'] })] }, deploymentAttributes(1), deps)), true);
  assert.deepEqual(await matchCriteria({ ...base, resourceRules: [rule()], excludeResourceRules: [rule({ resourceNames: ['web'] })] }, deploymentAttributes(1), deps), { matches: false });
});

test('Equivalent matches a rule naming another version, as that version; Exact does not', async () => {
  const betaRule = rule({ apiGroups: ['extensions'], apiVersions: ['v1beta1'] });
  const verdict = await matchCriteria({ ...base, resourceRules: [betaRule] }, deploymentAttributes(1), deps);
  assert.deepEqual(verdict, { matches: true, resource: beta, kind: { group: 'extensions', version: 'v1beta1', kind: 'Deployment' } });
  assert.deepEqual(await matchCriteria({ ...base, matchPolicy: 'Exact', resourceRules: [betaRule] }, deploymentAttributes(1), deps), { matches: false });
});

test('selectors: the namespace\'s labels and the object\'s; a binding without matchResources matches everything', async () => {
  assert.deepEqual(await matchCriteria({ ...base, namespaceSelector: { matchLabels: { env: 'dev' } }, resourceRules: [rule()] }, deploymentAttributes(1), deps), { matches: false });
  assert.deepEqual(await matchCriteria({ ...base, objectSelector: { matchLabels: { app: 'db' } }, resourceRules: [rule()] }, deploymentAttributes(1), deps), { matches: false });
  assert.equal((await matchCriteria(undefined, deploymentAttributes(1), deps) as { matches: boolean }).matches, true);
  const missing = await matchCriteria({ ...base, namespaceSelector: { matchLabels: { env: 'prod' } }, resourceRules: [rule()] }, deploymentAttributes(1, { namespace: 'gone' }), deps);
  assert.ok('error' in missing && /namespaces "gone" not found/.test(missing.error.message), JSON.stringify(missing));
});
