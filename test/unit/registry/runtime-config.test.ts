import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseFeatureGates, parseRuntimeConfig } from '../../../internal/registry/runtime-config.ts';
import { ResourceRegistry, builtinDeclarations } from '../../../internal/registry/resource-registry.ts';
import { parseServingFlags } from '../../../internal/replica/serving-flags.ts';

test('runtime-config: a group version key turns it on, a resource key decides for that resource, api/<level> for a whole level', () => {
  const config = parseRuntimeConfig('admissionregistration.k8s.io/v1beta1,batch/v1/jobs=false,api/alpha=true');
  assert.equal(config.served('admissionregistration.k8s.io', 'v1beta1', 'validatingadmissionpolicies', 'beta'), true);
  assert.equal(config.served('batch', 'v1', 'jobs', 'ga'), false);
  assert.equal(config.served('batch', 'v1', 'cronjobs', 'ga'), undefined);
  assert.equal(config.served('x.io', 'v1alpha2', 'things', 'alpha'), true);
  assert.deepEqual(config.groupVersions, ['admissionregistration.k8s.io/v1beta1', 'batch/v1']);
});

test('runtime-config: the core group is `v1` or `api/v1`; a value that is no bool is refused in kube\'s words', () => {
  assert.equal(parseRuntimeConfig('api/v1=false').served('', 'v1', 'pods', 'ga'), false);
  assert.equal(parseRuntimeConfig('v1/pods=false').served('', 'v1', 'pods', 'ga'), false);
  assert.equal(parseRuntimeConfig('/v1/pods=false').served('', 'v1', 'pods', 'ga'), false, 'kube\'s own spelling: an empty group');
  assert.equal(parseRuntimeConfig('/v1=false,api/all=true').served('', 'v1', 'pods', 'ga'), false);
  assert.throws(() => parseRuntimeConfig('batch/v1=maybe'), /invalid value of batch\/v1: maybe, err: strconv\.ParseBool: parsing "maybe": invalid syntax/);
});

test('feature-gates: Name=bool pairs; a missing value is refused', () => {
  assert.deepEqual([...parseFeatureGates('ValidatingAdmissionPolicy=true, Other=false')], [['ValidatingAdmissionPolicy', true], ['Other', false]]);
  assert.throws(() => parseFeatureGates('ValidatingAdmissionPolicy'), /missing bool value for ValidatingAdmissionPolicy/);
});

test('a declaration off by default is served only when runtime-config turns its group version on and its feature gate is on', () => {
  const served = (registry: ResourceRegistry): boolean => registry.find('admissionregistration.k8s.io', 'v1beta1', 'validatingadmissionpolicies') !== undefined;
  assert.equal(served(new ResourceRegistry('k8s.io')), false);
  const runtimeConfig = parseRuntimeConfig('admissionregistration.k8s.io/v1beta1=true');
  assert.equal(served(new ResourceRegistry('k8s.io', builtinDeclarations, { runtimeConfig })), false, 'the feature gate is off');
  assert.equal(served(new ResourceRegistry('k8s.io', builtinDeclarations, { runtimeConfig, featureGates: new Map([['ValidatingAdmissionPolicy', true]]) })), true);
  const off = new ResourceRegistry('k8s.io', builtinDeclarations, { runtimeConfig: parseRuntimeConfig('batch/v1=false') });
  assert.equal(off.find('batch', 'v1', 'jobs'), undefined);
  assert.notEqual(off.find('apps', 'v1', 'deployments'), undefined);
});

test('runtime-config and feature-gates read booleans as Go\'s strconv.ParseBool does (1, t, TRUE, True, 0, f, FALSE, False)', () => {
  assert.equal(parseRuntimeConfig('batch/v1=1').served('batch', 'v1', 'jobs', 'ga'), true);
  assert.equal(parseRuntimeConfig('batch/v1=False').served('batch', 'v1', 'jobs', 'ga'), false);
  assert.deepEqual([...parseFeatureGates('A=True,B=0')], [['A', true], ['B', false]]);
});

test('runtime-config: a level key takes only true or false (omitted: true), as kube compares the strings', () => {
  assert.equal(parseRuntimeConfig('api/alpha').served('x.io', 'v1alpha1', 'things', 'alpha'), true);
  assert.equal(parseRuntimeConfig('api/beta=false').served('x.io', 'v1beta1', 'things', 'beta'), false);
  assert.throws(() => parseRuntimeConfig('api/all=1'), /^Error: invalid value api\/all=1$/);
  assert.throws(() => parseRuntimeConfig('api/ga=False'), /^Error: invalid value api\/ga=False$/);
});

test('runtime-config: levels apply in kube\'s order (all, ga, beta, alpha), then group versions, then resources', () => {
  const config = parseRuntimeConfig('api/beta=true,api/all=false,flowcontrol.apiserver.k8s.io/v1beta2=false,flowcontrol.apiserver.k8s.io/v1beta2/flowschemas=true');
  assert.equal(config.served('x.io', 'v1beta1', 'things', 'beta'), true, 'api/beta beats api/all whatever the order written');
  assert.equal(config.served('apps', 'v1', 'deployments', 'ga'), false);
  assert.equal(config.served('flowcontrol.apiserver.k8s.io', 'v1beta2', 'prioritylevelconfigurations', 'beta'), false);
  assert.equal(config.served('flowcontrol.apiserver.k8s.io', 'v1beta2', 'flowschemas', 'beta'), true);
});

test('runtime-config: api/all=false alone and keys of more than three parts are refused in kube\'s words', () => {
  assert.throws(() => parseRuntimeConfig('api/all=false'), /^Error: invalid key with only api\/all=false$/);
  assert.doesNotThrow(() => parseRuntimeConfig('api/all=false,v1=true'));
  assert.throws(() => parseRuntimeConfig('apps/v1/deployments/scale'), /^Error: runtime-config invalid key apps\/v1\/deployments\/scale$/);
  assert.throws(() => parseRuntimeConfig('apps//deployments'), /runtime-config invalid key/);
});

test('served by default as in kube-apiserver 1.28: flowcontrol v1beta2 and v1beta3; not authentication v1beta1 or v1alpha1, nor admissionregistration v1beta1', () => {
  const registry = new ResourceRegistry('k8s.io');
  const versions = (group: string): string[] => registry.groups().get(group) ?? [];
  assert.deepEqual(versions('flowcontrol.apiserver.k8s.io').sort(), ['v1beta2', 'v1beta3']);
  assert.deepEqual(versions('authentication.k8s.io'), ['v1']);
  assert.deepEqual(versions('admissionregistration.k8s.io'), ['v1']);
  assert.deepEqual(versions('autoscaling').sort(), ['v1', 'v2']);
  const alpha = new ResourceRegistry('k8s.io', builtinDeclarations, { runtimeConfig: parseRuntimeConfig('api/alpha=true') });
  assert.deepEqual(alpha.groups().get('authentication.k8s.io'), ['v1', 'v1alpha1']);
  const beta = new ResourceRegistry('k8s.io', builtinDeclarations, { runtimeConfig: parseRuntimeConfig('api/beta=false') });
  assert.equal(beta.groups().get('flowcontrol.apiserver.k8s.io'), undefined, 'api/beta=false turns off the betas kube serves by default too');
});

test('--runtime-config: unknown groups, then versions a known group lacks, refuse the replica; a removed version names its replacement', () => {
  const parse = (flag: string): unknown => parseServingFlags({ 'runtime-config': flag }, 'k8s.io', (message) => new Error(message));
  assert.throws(() => parse('resource.k8s.io/v1alpha2=true,batch/v9=true,nope.io/v1/things'), /^Error: --runtime-config: unknown api groups resource\.k8s\.io,nope\.io$/);
  assert.throws(() => parse('batch/v9=true'), /^Error: --runtime-config: group version batch\/v9 that has not been registered$/);
  assert.throws(() => parse('batch/v1beta1=true'), /^Error: --runtime-config: group version batch\/v1beta1 that has not been registered \(batch\/v1beta1 CronJob was removed in v1\.25, use batch\/v1 CronJob\)$/);
  assert.doesNotThrow(() => parse('v1=true,api/v1/pods=true,batch/v1=false,authentication.k8s.io/v1alpha1/selfsubjectreviews=true,api/alpha=true'));
});

test('runtime-config: turning off the RBAC kinds or namespaces is one clear flag error, not a failed start', () => {
  const fail = (message: string): Error => new Error(message);
  for (const flag of ['rbac.authorization.k8s.io/v1=false', 'api/all=false,v1=true', 'v1=false', 'rbac.authorization.k8s.io/v1/clusterroles=false']) {
    assert.throws(() => parseServingFlags({ 'runtime-config': flag }, 'k8s.io', fail), /^Error: --runtime-config: .* cannot be turned off: orch keeps its authorization policy in the RBAC kinds/, flag);
  }
  assert.doesNotThrow(() => parseServingFlags({ 'runtime-config': 'api/all=false,v1=true,rbac.authorization.k8s.io/v1=true' }, 'k8s.io', fail));
});
