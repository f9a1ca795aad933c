// Every check of the standards as of Kubernetes 1.28, and which of them run for a level and version
// (k8s.io/pod-security-admission/policy: DefaultChecks, NewEvaluator, EvaluatePod).
import assert from 'node:assert/strict';
import type { LevelVersion } from '../api/policy.ts';
import { versionAtLeast, type PolicyVersion } from '../api/version.ts';
import { allowPrivilegeEscalationCheck } from './allow-privilege-escalation.ts';
import { appArmorProfileCheck } from './apparmor-profile.ts';
import { capabilitiesBaselineCheck } from './capabilities-baseline.ts';
import { capabilitiesRestrictedCheck } from './capabilities-restricted.ts';
import type { Check, CheckResult, VersionedCheck } from './check.ts';
import { hostNamespacesCheck } from './host-namespaces.ts';
import { hostPathVolumesCheck } from './host-path-volumes.ts';
import { hostPortsCheck } from './host-ports.ts';
import type { PodView } from './pod-view.ts';
import { privilegedCheck } from './privileged.ts';
import { procMountCheck } from './proc-mount.ts';
import { restrictedVolumesCheck } from './restricted-volumes.ts';
import { runAsNonRootCheck } from './run-as-non-root.ts';
import { runAsUserCheck } from './run-as-user.ts';
import { seLinuxOptionsCheck } from './selinux-options.ts';
import { seccompProfileBaselineCheck } from './seccomp-profile-baseline.ts';
import { seccompProfileRestrictedCheck } from './seccomp-profile-restricted.ts';
import { sysctlsCheck } from './sysctls.ts';
import { windowsHostProcessCheck } from './windows-host-process.ts';

/** Every check, in no particular order. */
export const allChecks: readonly Check[] = [
  allowPrivilegeEscalationCheck, appArmorProfileCheck, capabilitiesBaselineCheck, capabilitiesRestrictedCheck, hostNamespacesCheck,
  hostPathVolumesCheck, hostPortsCheck, privilegedCheck, procMountCheck, restrictedVolumesCheck, runAsNonRootCheck, runAsUserCheck,
  seLinuxOptionsCheck, seccompProfileBaselineCheck, seccompProfileRestrictedCheck, sysctlsCheck, windowsHostProcessCheck,
];

/** Ids are unique and revisions strictly increasing, or the registry is broken (kube's validateChecks). */
function assertWellFormed(checks: readonly Check[]): void {
  assert.equal(new Set(checks.map((c) => c.id)).size, checks.length, 'PodSecurity check ids must be unique');
  for (const check of checks) {
    assert.ok(check.versions.length > 0, `PodSecurity check ${check.id} has no versions`);
    check.versions.forEach((v, i) => assert.ok(i === 0 || v.minimumMinor > (check.versions[i - 1]?.minimumMinor ?? -1), `PodSecurity check ${check.id}: versions must increase`));
    for (const id of check.versions.flatMap((v) => v.overrides ?? [])) {
      assert.ok(check.level === 'restricted' && checks.some((c) => c.id === id && c.level === 'baseline'), `PodSecurity check ${check.id} overrides ${id}`);
    }
  }
}

assertWellFormed(allChecks);

/** Checks of a level sorted by id, so messages list reasons in kube's stable order. */
function sortedChecks(level: Check['level']): readonly Check[] {
  return allChecks.filter((c) => c.level === level).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

const baselineChecks = sortedChecks('baseline');
const restrictedChecks = sortedChecks('restricted');

/** The revision of a check in force at a version, or undefined when it was introduced later. */
export function revisionAt(check: Check, version: PolicyVersion): VersionedCheck | undefined {
  let found: VersionedCheck | undefined;
  for (const revision of check.versions) if (versionAtLeast(version, revision.minimumMinor)) found = revision;
  return found;
}

/** The check revisions that run for a level and version: baseline ones first, then restricted ones. */
export function revisionsFor(lv: LevelVersion): VersionedCheck[] {
  if (lv.level === 'privileged') return [];
  const baseline = baselineChecks.map((c) => ({ id: c.id, revision: revisionAt(c, lv.version) }));
  if (lv.level === 'baseline') return baseline.flatMap((c) => (c.revision ? [c.revision] : []));
  const restricted = restrictedChecks.flatMap((c) => {
    const revision = revisionAt(c, lv.version);
    return revision ? [revision] : [];
  });
  // A restricted revision may supersede a baseline check it is stricter than (only while in force).
  const overridden = new Set(restricted.flatMap((r) => r.overrides ?? []));
  const kept = baseline.filter((c) => !overridden.has(c.id)).flatMap((c) => (c.revision ? [c.revision] : []));
  return [...kept, ...restricted];
}

/** Runs the checks of a level and version on a pod; privileged runs none. */
export function evaluatePod(lv: LevelVersion, pod: PodView): CheckResult[] {
  return revisionsFor(lv).map((revision) => revision.checkPod(pod));
}
