// How namespace labels resolve to a policy: absent labels take the defaults, bad levels fail closed
// for enforce and open for audit and warn, bad versions become latest.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { policyFromLabels } from '../../../../internal/admission/plugins/podsecurity/api/namespace-labels.ts';
import type { Policy } from '../../../../internal/admission/plugins/podsecurity/api/policy.ts';
import { parseVersion } from '../../../../internal/admission/plugins/podsecurity/api/version.ts';

const defaults: Policy = {
  enforce: { level: 'baseline', version: 20 },
  audit: { level: 'privileged', version: 'latest' },
  warn: { level: 'restricted', version: 'latest' },
};

test('absent labels keep the defaults, present ones replace them per field', () => {
  assert.deepEqual(policyFromLabels(undefined, defaults), { policy: defaults, errors: [] });
  const { policy, errors } = policyFromLabels({ 'pod-security.kubernetes.io/enforce-version': 'v1.25', 'pod-security.kubernetes.io/audit': 'restricted' }, defaults);
  assert.deepEqual(errors, []);
  assert.deepEqual(policy, { enforce: { level: 'baseline', version: 25 }, audit: { level: 'restricted', version: 'latest' }, warn: defaults.warn });
});

test('a bad enforce level becomes restricted; bad audit and warn levels become privileged', () => {
  const { policy, errors } = policyFromLabels(
    { 'pod-security.kubernetes.io/enforce': 'x', 'pod-security.kubernetes.io/audit': 'y', 'pod-security.kubernetes.io/warn': 'z', 'pod-security.kubernetes.io/warn-version': 'v1.x' },
    defaults,
  );
  assert.deepEqual(policy, { enforce: { level: 'restricted', version: 20 }, audit: { level: 'privileged', version: 'latest' }, warn: { level: 'privileged', version: 'latest' } });
  assert.deepEqual(errors.map((e) => e.field), [
    'metadata.labels[pod-security.kubernetes.io/enforce]',
    'metadata.labels[pod-security.kubernetes.io/audit]',
    'metadata.labels[pod-security.kubernetes.io/warn]',
    'metadata.labels[pod-security.kubernetes.io/warn-version]',
  ]);
});

test('versions are latest or v1.<minor> without leading zeros', () => {
  assert.deepEqual(parseVersion('latest'), { version: 'latest' });
  assert.deepEqual(parseVersion('v1.0'), { version: 0 });
  assert.deepEqual(parseVersion('v1.28'), { version: 28 });
  for (const bad of ['v1.01', 'v2.0', '1.28', 'v1.', 'v1.28.1', 'Latest', '']) assert.deepEqual(parseVersion(bad), { version: 'latest', error: 'must be "latest" or "v1.x"' }, bad);
});
