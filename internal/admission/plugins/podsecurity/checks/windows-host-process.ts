// Baseline: Windows HostProcess containers run as the node and are forbidden
// (securityContext.windowsOptions.hostProcess must not be true, at pod or container level).
import { allowed, forbidden, type Check, type CheckResult } from './check.ts';
import { containersPhrase } from './format.ts';
import { allContainers, containerName, containerSecurityContext, objectOf, podSecurityContext, type JsonObject, type PodView } from './pod-view.ts';

function setsHostProcess(securityContext: JsonObject | undefined): boolean {
  return objectOf(securityContext?.windowsOptions)?.hostProcess === true;
}

function windowsHostProcessV1Dot0({ spec }: PodView): CheckResult {
  const badContainers = allContainers(spec).filter((c) => setsHostProcess(containerSecurityContext(c))).map(containerName);
  const setters: string[] = [];
  if (setsHostProcess(podSecurityContext(spec))) setters.push('pod');
  if (badContainers.length > 0) setters.push(containersPhrase(badContainers));
  if (setters.length === 0) return allowed;
  return forbidden('hostProcess', `${setters.join(' and ')} must not set securityContext.windowsOptions.hostProcess=true`);
}

/** The windowsHostProcess check, from v1.0. */
export const windowsHostProcessCheck: Check = {
  id: 'windowsHostProcess',
  level: 'baseline',
  versions: [{ minimumMinor: 0, checkPod: windowsHostProcessV1Dot0 }],
};
