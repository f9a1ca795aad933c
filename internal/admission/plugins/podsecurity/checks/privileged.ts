// Baseline: privileged containers disable most isolation, so securityContext.privileged must not be true.
import { allowed, forbidden, type Check, type CheckResult } from './check.ts';
import { containersPhrase } from './format.ts';
import { allContainers, containerName, containerSecurityContext, type PodView } from './pod-view.ts';

function privilegedV1Dot0({ spec }: PodView): CheckResult {
  const bad = allContainers(spec).filter((c) => containerSecurityContext(c)?.privileged === true).map(containerName);
  if (bad.length === 0) return allowed;
  return forbidden('privileged', `${containersPhrase(bad)} must not set securityContext.privileged=true`);
}

/** The privileged check, from v1.0. */
export const privilegedCheck: Check = {
  id: 'privileged',
  level: 'baseline',
  versions: [{ minimumMinor: 0, checkPod: privilegedV1Dot0 }],
};
