// Restricted: containers must set allowPrivilegeEscalation=false, so setuid binaries cannot gain
// privileges. The field exists from v1.8; Windows pods are exempt from v1.25 (it cannot be set on them).
import { allowed, forbidden, type Check, type CheckResult } from './check.ts';
import { containersPhrase } from './format.ts';
import { allContainers, containerName, containerSecurityContext, isWindowsPod, type PodView } from './pod-view.ts';

function allowPrivilegeEscalationV1Dot8({ spec }: PodView): CheckResult {
  const bad = allContainers(spec)
    .filter((c) => containerSecurityContext(c)?.allowPrivilegeEscalation !== false)
    .map(containerName);
  if (bad.length === 0) return allowed;
  return forbidden('allowPrivilegeEscalation != false', `${containersPhrase(bad)} must set securityContext.allowPrivilegeEscalation=false`);
}

function allowPrivilegeEscalationV1Dot25(pod: PodView): CheckResult {
  return isWindowsPod(pod.spec) ? allowed : allowPrivilegeEscalationV1Dot8(pod);
}

/** The allowPrivilegeEscalation check, from v1.8; Windows pods exempt from v1.25. */
export const allowPrivilegeEscalationCheck: Check = {
  id: 'allowPrivilegeEscalation',
  level: 'restricted',
  versions: [
    { minimumMinor: 8, checkPod: allowPrivilegeEscalationV1Dot8 },
    { minimumMinor: 25, checkPod: allowPrivilegeEscalationV1Dot25 },
  ],
};
