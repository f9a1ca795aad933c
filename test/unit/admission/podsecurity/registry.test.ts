// Which checks run for a level and version, in which order, and how restricted checks supersede the
// baseline checks they are stricter than.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { aggregateCheckResults, forbiddenDetail, forbiddenReason } from '../../../../internal/admission/plugins/podsecurity/checks/aggregate.ts';
import { podView } from '../../../../internal/admission/plugins/podsecurity/checks/pod-view.ts';
import { allChecks, evaluatePod, revisionsFor } from '../../../../internal/admission/plugins/podsecurity/checks/registry.ts';
import type { LevelVersion } from '../../../../internal/admission/plugins/podsecurity/api/policy.ts';

const restrictedLatest: LevelVersion = { level: 'restricted', version: 'latest' };

function reasons(lv: LevelVersion, spec: Record<string, unknown>, annotations: Record<string, string> = {}): string {
  return forbiddenReason(aggregateCheckResults(evaluatePod(lv, podView({ annotations }, spec))));
}

const everythingWrong = {
  hostNetwork: true,
  volumes: [{ name: 'h', hostPath: {} }],
  securityContext: { runAsUser: 0, sysctls: [{ name: 'kernel.msgmax' }], seccompProfile: { type: 'Unconfined' } },
  containers: [{ name: 'x', ports: [{ hostPort: 1 }], securityContext: { privileged: true, procMount: 'Unmasked', capabilities: { add: ['SYS_ADMIN'] }, seLinuxOptions: { user: 'u' }, windowsOptions: { hostProcess: true } } }],
};
const appArmor = { 'container.apparmor.security.beta.kubernetes.io/x': 'unconfined' };

test('the check ids are unique and each check has strictly increasing versions', () => {
  assert.equal(new Set(allChecks.map((c) => c.id)).size, allChecks.length);
  for (const check of allChecks) {
    const minors = check.versions.map((v) => v.minimumMinor);
    assert.deepEqual(minors, [...minors].sort((a, b) => a - b), check.id);
    assert.equal(new Set(minors).size, minors.length, check.id);
  }
});

test('privileged runs no checks at all', () => {
  assert.deepEqual(revisionsFor({ level: 'privileged', version: 'latest' }), []);
  assert.equal(reasons({ level: 'privileged', version: 'latest' }, everythingWrong, appArmor), '');
});

test('baseline reports its checks sorted by id', () => {
  assert.equal(
    reasons({ level: 'baseline', version: 'latest' }, everythingWrong, appArmor),
    'forbidden AppArmor profile, non-default capabilities, host namespaces, hostPath volumes, hostPort, privileged, procMount, seLinuxOptions, seccompProfile, forbidden sysctls, hostProcess',
  );
});

test('restricted reports baseline checks first, then restricted ones, superseded baseline checks left out', () => {
  assert.equal(
    reasons(restrictedLatest, everythingWrong, appArmor),
    'forbidden AppArmor profile, host namespaces, hostPort, privileged, procMount, seLinuxOptions, forbidden sysctls, hostProcess, ' +
      'allowPrivilegeEscalation != false, unrestricted capabilities, restricted volume types, runAsNonRoot != true, runAsUser=0, seccompProfile',
  );
});

test('a superseded baseline check still runs at versions before its restricted replacement', () => {
  const spec = { containers: [{ name: 'x', securityContext: { capabilities: { add: ['SYS_ADMIN'] }, allowPrivilegeEscalation: false, runAsNonRoot: true } }] };
  // capabilities_restricted begins in v1.22: before it, restricted uses capabilities_baseline.
  assert.equal(reasons({ level: 'restricted', version: 21 }, spec), 'non-default capabilities, seccompProfile');
  assert.equal(reasons({ level: 'restricted', version: 22 }, spec), 'unrestricted capabilities, seccompProfile');
});

test('pinning a version leaves out checks introduced after it', () => {
  const rootPod = { securityContext: { runAsNonRoot: true, runAsUser: 0, seccompProfile: { type: 'RuntimeDefault' } }, containers: [{ name: 'x', securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } } }] };
  assert.equal(reasons(restrictedLatest, rootPod), 'runAsUser=0');
  assert.equal(reasons({ level: 'restricted', version: 23 }, rootPod), 'runAsUser=0');
  assert.equal(reasons({ level: 'restricted', version: 22 }, rootPod), '', 'runAsUser applies from v1.23');
  // A version newer than any check behaves as latest.
  assert.equal(reasons({ level: 'restricted', version: 99 }, rootPod), 'runAsUser=0');
});

test('the aggregate detail puts each check detail in parentheses after its reason', () => {
  const result = aggregateCheckResults(evaluatePod({ level: 'baseline', version: 'latest' }, podView({}, { hostPID: true, containers: [{ name: 'x', securityContext: { privileged: true } }] })));
  assert.equal(forbiddenDetail(result), 'host namespaces (hostPID), privileged (container "x" must not set securityContext.privileged=true)');
  assert.deepEqual(aggregateCheckResults([{ allowed: false }]).forbiddenReasons, ['unknown forbidden reason']);
});
