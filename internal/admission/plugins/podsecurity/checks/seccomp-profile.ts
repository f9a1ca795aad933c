// What the two seccomp checks share: which profile types are confined, and the
// "pod or containers set a bad type" wording.
import { containersPhrase, joinQuote, sortedUnique } from './format.ts';
import { allContainers, containerName, containerSecurityContext, objectOf, podSecurityContext, stringOf, type JsonObject } from './pod-view.ts';

/** Whether a seccompProfile.type confines the container (Unconfined, or anything unknown, does not). */
export function validSeccompType(type: string): boolean {
  return type === 'RuntimeDefault' || type === 'Localhost';
}

/** Where seccomp profiles are set to an unconfined type, and where none applies. */
export interface SeccompFindings {
  /** "pod" and/or `containers "a", "b"`: who set a bad type. */
  readonly badSetters: string[];
  readonly badTypes: string[];
  /** Containers with no profile of their own and no valid pod-level profile to inherit. */
  readonly implicitlyBadContainers: string[];
}

/** Examines the pod's and the containers' seccompProfile fields. */
export function seccompFindings(spec: JsonObject): SeccompFindings {
  const badSetters: string[] = [];
  const badTypes: string[] = [];
  let podProfileValid = false;
  const podProfile = objectOf(podSecurityContext(spec)?.seccompProfile);
  if (podProfile !== undefined) {
    const type = stringOf(podProfile.type);
    if (validSeccompType(type)) podProfileValid = true;
    else {
      badSetters.push('pod');
      badTypes.push(type);
    }
  }
  const explicitlyBad: string[] = [];
  const implicitlyBadContainers: string[] = [];
  for (const container of allContainers(spec)) {
    const profile = objectOf(containerSecurityContext(container)?.seccompProfile);
    if (profile === undefined) {
      if (!podProfileValid) implicitlyBadContainers.push(containerName(container));
    } else if (!validSeccompType(stringOf(profile.type))) {
      explicitlyBad.push(containerName(container));
      badTypes.push(stringOf(profile.type));
    }
  }
  if (explicitlyBad.length > 0) badSetters.push(containersPhrase(explicitlyBad));
  return { badSetters, badTypes, implicitlyBadContainers };
}

/** `pod and container "a" must not set securityContext.seccompProfile.type to "Unconfined"`. */
export function badSeccompDetail(findings: SeccompFindings): string {
  return `${findings.badSetters.join(' and ')} must not set securityContext.seccompProfile.type to ${joinQuote(sortedUnique(findings.badTypes))}`;
}
