// Baseline: a seccomp profile, when set, must confine the container. Before v1.19 the profile was
// given by annotations; from v1.19 by securityContext.seccompProfile.
import { allowed, forbidden, type Check, type CheckResult } from './check.ts';
import { goQuote, pluralize, sortedUnique } from './format.ts';
import { allContainers, containerName, type PodView } from './pod-view.ts';
import { badSeccompDetail, seccompFindings } from './seccomp-profile.ts';

const podAnnotation = 'seccomp.security.alpha.kubernetes.io/pod';
const containerAnnotationPrefix = 'container.seccomp.security.alpha.kubernetes.io/';

function validAnnotationValue(value: string): boolean {
  return value === 'runtime/default' || value === 'docker/default' || value.startsWith('localhost/');
}

function seccompProfileBaselineV1Dot0({ annotations, spec }: PodView): CheckResult {
  const keys = [podAnnotation, ...allContainers(spec).map((c) => containerAnnotationPrefix + containerName(c))];
  const bad = keys.flatMap((key) => {
    const value = annotations[key];
    return value === undefined || validAnnotationValue(value) ? [] : [`${key}=${goQuote(value)}`];
  });
  if (bad.length === 0) return allowed;
  const sorted = sortedUnique(bad);
  return forbidden('seccompProfile', `forbidden ${pluralize('annotation', 'annotations', sorted.length)} ${sorted.join(', ')}`);
}

function seccompProfileBaselineV1Dot19({ spec }: PodView): CheckResult {
  const findings = seccompFindings(spec);
  return findings.badSetters.length === 0 ? allowed : forbidden('seccompProfile', badSeccompDetail(findings));
}

/** The seccompProfile_baseline check: annotations from v1.0, fields from v1.19. */
export const seccompProfileBaselineCheck: Check = {
  id: 'seccompProfile_baseline',
  level: 'baseline',
  versions: [
    { minimumMinor: 0, checkPod: seccompProfileBaselineV1Dot0 },
    { minimumMinor: 19, checkPod: seccompProfileBaselineV1Dot19 },
  ],
};
