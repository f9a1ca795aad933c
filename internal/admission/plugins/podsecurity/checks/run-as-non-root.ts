// Restricted: containers must run as a non-root user: runAsNonRoot=true on the pod or on every
// container, and false nowhere.
import { allowed, forbidden, type Check, type CheckResult } from './check.ts';
import { containersPhrase } from './format.ts';
import { allContainers, containerName, containerSecurityContext, podSecurityContext, type PodView } from './pod-view.ts';

function runAsNonRootV1Dot0({ spec }: PodView): CheckResult {
  const badSetters: string[] = [];
  const podValue = podSecurityContext(spec)?.runAsNonRoot;
  if (podValue === false) badSetters.push('pod');
  const podRunAsNonRoot = podValue === true;
  const explicitlyBad: string[] = [];
  const implicitlyBad: string[] = [];
  for (const container of allContainers(spec)) {
    const value = containerSecurityContext(container)?.runAsNonRoot;
    if (value === false) explicitlyBad.push(containerName(container));
    else if (value !== true && !podRunAsNonRoot) implicitlyBad.push(containerName(container));
  }
  if (explicitlyBad.length > 0) badSetters.push(containersPhrase(explicitlyBad));
  if (badSetters.length > 0) return forbidden('runAsNonRoot != true', `${badSetters.join(' and ')} must not set securityContext.runAsNonRoot=false`);
  if (implicitlyBad.length > 0) return forbidden('runAsNonRoot != true', `pod or ${containersPhrase(implicitlyBad)} must set securityContext.runAsNonRoot=true`);
  return allowed;
}

/** The runAsNonRoot check, from v1.0. */
export const runAsNonRootCheck: Check = {
  id: 'runAsNonRoot',
  level: 'restricted',
  versions: [{ minimumMinor: 0, checkPod: runAsNonRootV1Dot0 }],
};
