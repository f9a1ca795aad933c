import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseFeatureGates, parseRuntimeConfig } from '../../../internal/registry/runtime-config.ts';
import { ResourceRegistry, builtinDeclarations } from '../../../internal/registry/resource-registry.ts';

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
  assert.equal(parseRuntimeConfig('api/all=1').served('x.io', 'v1', 'things', 'ga'), true);
  assert.equal(parseRuntimeConfig('batch/v1=False').served('batch', 'v1', 'jobs', 'ga'), false);
  assert.deepEqual([...parseFeatureGates('A=True,B=0')], [['A', true], ['B', false]]);
});
