// Restricted (from v1.23): no explicit runAsUser=0, at pod or container level, which would defeat
// runAsNonRoot's image-based check.
import { allowed, forbidden, type Check, type CheckResult } from './check.ts';
import { containersPhrase } from './format.ts';
import { allContainers, containerName, containerSecurityContext, podSecurityContext, type PodView } from './pod-view.ts';

function runAsUserV1Dot23({ spec }: PodView): CheckResult {
  const badSetters: string[] = [];
  if (podSecurityContext(spec)?.runAsUser === 0) badSetters.push('pod');
  const badContainers = allContainers(spec).filter((c) => containerSecurityContext(c)?.runAsUser === 0).map(containerName);
  if (badContainers.length > 0) badSetters.push(containersPhrase(badContainers));
  if (badSetters.length === 0) return allowed;
  return forbidden('runAsUser=0', `${badSetters.join(' and ')} must not set runAsUser=0`);
}

/** The runAsUser check, from v1.23. */
export const runAsUserCheck: Check = {
  id: 'runAsUser',
  level: 'restricted',
  versions: [{ minimumMinor: 23, checkPod: runAsUserV1Dot23 }],
};
