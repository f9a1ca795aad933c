// Baseline: containers may add only capabilities from the container runtime's default set.
import { allowed, forbidden, type Check, type CheckResult } from './check.ts';
import { containersPhrase, joinQuote, sortedUnique } from './format.ts';
import { allContainers, arrayOf, containerName, containerSecurityContext, objectOf, stringOf, type PodView } from './pod-view.ts';

/** The default capabilities of container runtimes, which baseline lets a container add back. */
const defaultCapabilities: ReadonlySet<string> = new Set([
  'AUDIT_WRITE', 'CHOWN', 'DAC_OVERRIDE', 'FOWNER', 'FSETID', 'KILL', 'MKNOD', 'NET_BIND_SERVICE', 'SETFCAP', 'SETGID', 'SETPCAP', 'SETUID', 'SYS_CHROOT',
]);

function capabilitiesBaselineV1Dot0({ spec }: PodView): CheckResult {
  const badContainers: string[] = [];
  const nonDefault: string[] = [];
  for (const container of allContainers(spec)) {
    const capabilities = objectOf(containerSecurityContext(container)?.capabilities);
    if (capabilities === undefined) continue;
    const added = arrayOf(capabilities.add).map(stringOf).filter((c) => !defaultCapabilities.has(c));
    if (added.length === 0) continue;
    nonDefault.push(...added);
    badContainers.push(containerName(container));
  }
  if (badContainers.length === 0) return allowed;
  return forbidden(
    'non-default capabilities',
    `${containersPhrase(badContainers)} must not include ${joinQuote(sortedUnique(nonDefault))} in securityContext.capabilities.add`,
  );
}

/** The capabilities_baseline check, from v1.0 (superseded by capabilities_restricted at the restricted level). */
export const capabilitiesBaselineCheck: Check = {
  id: 'capabilities_baseline',
  level: 'baseline',
  versions: [{ minimumMinor: 0, checkPod: capabilitiesBaselineV1Dot0 }],
};
