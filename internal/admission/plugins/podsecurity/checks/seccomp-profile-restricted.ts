// Restricted: every container must run under a confining seccomp profile (RuntimeDefault or
// Localhost), its own or the pod's. Windows pods are exempt from v1.25.
import { allowed, forbidden, type Check, type CheckResult } from './check.ts';
import { containersPhrase } from './format.ts';
import { isWindowsPod, type PodView } from './pod-view.ts';
import { seccompProfileBaselineCheck } from './seccomp-profile-baseline.ts';
import { badSeccompDetail, seccompFindings } from './seccomp-profile.ts';

function seccompProfileRestrictedV1Dot19({ spec }: PodView): CheckResult {
  const findings = seccompFindings(spec);
  if (findings.badSetters.length > 0) return forbidden('seccompProfile', badSeccompDetail(findings));
  if (findings.implicitlyBadContainers.length === 0) return allowed;
  return forbidden(
    'seccompProfile',
    `pod or ${containersPhrase(findings.implicitlyBadContainers)} must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost"`,
  );
}

function seccompProfileRestrictedV1Dot25(pod: PodView): CheckResult {
  return isWindowsPod(pod.spec) ? allowed : seccompProfileRestrictedV1Dot19(pod);
}

const overrides = [seccompProfileBaselineCheck.id];

/** The seccompProfile_restricted check, from v1.19; Windows pods exempt from v1.25. */
export const seccompProfileRestrictedCheck: Check = {
  id: 'seccompProfile_restricted',
  level: 'restricted',
  versions: [
    { minimumMinor: 19, checkPod: seccompProfileRestrictedV1Dot19, overrides },
    { minimumMinor: 25, checkPod: seccompProfileRestrictedV1Dot25, overrides },
  ],
};
