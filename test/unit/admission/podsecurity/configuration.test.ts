// The PodSecurityConfiguration is decoded strictly and validated; a bad one stops the plugin with an
// Error naming the field, as kube-apiserver refuses to start.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { defaultConfiguration, parsePodSecurityConfiguration } from '../../../../internal/admission/plugins/podsecurity/configuration.ts';
import { MemoryObjects, plugin } from './harness.ts';

const base = { apiVersion: 'pod-security.admission.config.k8s.io/v1', kind: 'PodSecurityConfiguration' };

test('no configuration means everything privileged at latest and nothing exempt', () => {
  assert.deepEqual(parsePodSecurityConfiguration(undefined), defaultConfiguration);
  assert.deepEqual(parsePodSecurityConfiguration(base), defaultConfiguration);
});

test('every served apiVersion is accepted, and blank defaults mean privileged and latest', () => {
  for (const version of ['v1', 'v1beta1', 'v1alpha1']) {
    const config = parsePodSecurityConfiguration({
      ...base,
      apiVersion: `pod-security.admission.config.k8s.io/${version}`,
      defaults: { enforce: 'baseline', 'enforce-version': 'v1.24', audit: 'restricted', warn: '' },
      exemptions: { usernames: ['u'], namespaces: ['kube-system'], runtimeClasses: ['kata.example.com'] },
    });
    assert.deepEqual(config.defaults, {
      enforce: { level: 'baseline', version: 24 },
      audit: { level: 'restricted', version: 'latest' },
      warn: { level: 'privileged', version: 'latest' },
    });
    assert.deepEqual(config.exemptions, { usernames: ['u'], namespaces: ['kube-system'], runtimeClasses: ['kata.example.com'] });
  }
});

test('bad levels and versions are refused with kube\'s validation text, in its order', () => {
  assert.throws(() => parsePodSecurityConfiguration({ ...base, defaults: { enforce: 'strict' } }), {
    message: 'PodSecurity invalid: defaults.enforce: Invalid value: "strict": must be one of privileged, baseline, restricted',
  });
  assert.throws(() => parsePodSecurityConfiguration({ ...base, defaults: { 'audit-version': '1.2', 'warn-version': 'v2.0' } }), {
    message: 'PodSecurity invalid: [defaults.warn-version: Invalid value: "v2.0": must be "latest" or "v1.x", defaults.audit-version: Invalid value: "1.2": must be "latest" or "v1.x"]',
  });
});

test('bad and duplicate exemptions are refused', () => {
  assert.throws(() => parsePodSecurityConfiguration({ ...base, exemptions: { namespaces: ['Kube_System'] } }), /exemptions\.namespaces\[0\]: Invalid value: "Kube_System": a lowercase RFC 1123 label/);
  assert.throws(() => parsePodSecurityConfiguration({ ...base, exemptions: { namespaces: ['a', 'a'] } }), { message: 'PodSecurity invalid: exemptions.namespaces[1]: Duplicate value: "a"' });
  assert.throws(() => parsePodSecurityConfiguration({ ...base, exemptions: { runtimeClasses: ['-x'] } }), /exemptions\.runtimeClasses\[0\]: Invalid value: "-x": a lowercase RFC 1123 subdomain/);
  assert.throws(() => parsePodSecurityConfiguration({ ...base, exemptions: { usernames: ['', 'u', 'u'] } }), {
    message: 'PodSecurity invalid: [exemptions.usernames[0]: Required value, exemptions.usernames[2]: Duplicate value: "u"]',
  });
});

test('unknown fields, wrong types and wrong kinds are refused', () => {
  assert.throws(() => parsePodSecurityConfiguration({ ...base, defaults: { enforce: 'baseline', enforceVersion: 'v1.2' } }), { message: 'PodSecurity configuration: unknown field "defaults.enforceVersion"' });
  assert.throws(() => parsePodSecurityConfiguration({ ...base, exemption: {} }), { message: 'PodSecurity configuration: unknown field "exemption"' });
  assert.throws(() => parsePodSecurityConfiguration({ ...base, exemptions: { usernames: 'admin' } }), { message: 'PodSecurity configuration: exemptions.usernames must be a list of strings' });
  assert.throws(() => parsePodSecurityConfiguration({ ...base, defaults: { enforce: 1 } }), { message: 'PodSecurity configuration: defaults.enforce must be a string' });
  assert.throws(() => parsePodSecurityConfiguration({ ...base, kind: 'AdmissionConfiguration' }), /kind must be PodSecurityConfiguration/);
  assert.throws(() => parsePodSecurityConfiguration({ ...base, apiVersion: 'v1' }), /apiVersion must be one of pod-security\.admission\.config\.k8s\.io\/v1/);
  assert.throws(() => parsePodSecurityConfiguration('enforce: baseline'), /must be an object/);
});

test('the factory refuses a bad configuration', () => {
  assert.throws(() => plugin(new MemoryObjects(), { ...base, defaults: { warn: 'loud' } }), /PodSecurity invalid: defaults\.warn/);
});
