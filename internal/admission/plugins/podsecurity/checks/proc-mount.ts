// Baseline: the default /proc masks must stay (securityContext.procMount unset or "Default").
import { allowed, forbidden, type Check, type CheckResult } from './check.ts';
import { containersPhrase, joinQuote, sortedUnique } from './format.ts';
import { allContainers, containerName, containerSecurityContext, type PodView } from './pod-view.ts';

function procMountV1Dot0({ spec }: PodView): CheckResult {
  const badContainers: string[] = [];
  const types: string[] = [];
  for (const container of allContainers(spec)) {
    const procMount = containerSecurityContext(container)?.procMount;
    if (procMount === undefined || procMount === null || procMount === 'Default') continue;
    badContainers.push(containerName(container));
    types.push(String(procMount));
  }
  if (badContainers.length === 0) return allowed;
  return forbidden('procMount', `${containersPhrase(badContainers)} must not set securityContext.procMount to ${joinQuote(sortedUnique(types))}`);
}

/** The procMount check, from v1.0. */
export const procMountCheck: Check = {
  id: 'procMount',
  level: 'baseline',
  versions: [{ minimumMinor: 0, checkPod: procMountV1Dot0 }],
};
