// Restricted: containers must drop ALL capabilities and may add back only NET_BIND_SERVICE.
// Windows pods are exempt from v1.25 (the field cannot be set on them).
import { capabilitiesBaselineCheck } from './capabilities-baseline.ts';
import { allowed, forbidden, type Check, type CheckResult } from './check.ts';
import { containersPhrase, joinQuote, sortedUnique } from './format.ts';
import { allContainers, arrayOf, containerName, containerSecurityContext, isWindowsPod, objectOf, stringOf, type PodView } from './pod-view.ts';

function capabilitiesRestrictedV1Dot22({ spec }: PodView): CheckResult {
  const missingDropAll: string[] = [];
  const addingForbidden: string[] = [];
  const forbiddenCapabilities: string[] = [];
  for (const container of allContainers(spec)) {
    const capabilities = objectOf(containerSecurityContext(container)?.capabilities);
    if (capabilities === undefined) {
      missingDropAll.push(containerName(container));
      continue;
    }
    if (!arrayOf(capabilities.drop).includes('ALL')) missingDropAll.push(containerName(container));
    const added = arrayOf(capabilities.add).map(stringOf).filter((c) => c !== 'NET_BIND_SERVICE');
    if (added.length > 0) {
      forbiddenCapabilities.push(...added);
      addingForbidden.push(containerName(container));
    }
  }
  const details: string[] = [];
  if (missingDropAll.length > 0) details.push(`${containersPhrase(missingDropAll)} must set securityContext.capabilities.drop=["ALL"]`);
  if (addingForbidden.length > 0) {
    details.push(`${containersPhrase(addingForbidden)} must not include ${joinQuote(sortedUnique(forbiddenCapabilities))} in securityContext.capabilities.add`);
  }
  return details.length === 0 ? allowed : forbidden('unrestricted capabilities', details.join('; '));
}

function capabilitiesRestrictedV1Dot25(pod: PodView): CheckResult {
  return isWindowsPod(pod.spec) ? allowed : capabilitiesRestrictedV1Dot22(pod);
}

const overrides = [capabilitiesBaselineCheck.id];

/** The capabilities_restricted check, from v1.22; Windows pods exempt from v1.25. */
export const capabilitiesRestrictedCheck: Check = {
  id: 'capabilities_restricted',
  level: 'restricted',
  versions: [
    { minimumMinor: 22, checkPod: capabilitiesRestrictedV1Dot22, overrides },
    { minimumMinor: 25, checkPod: capabilitiesRestrictedV1Dot25, overrides },
  ],
};
