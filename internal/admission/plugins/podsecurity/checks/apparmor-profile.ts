// Baseline: the AppArmor annotations may not disable or override the runtime's default profile
// except with a profile loaded on the node (`runtime/default`, `localhost/*`, or empty).
import { allowed, forbidden, type Check, type CheckResult } from './check.ts';
import { goQuote, pluralize, sortedUnique } from './format.ts';
import type { PodView } from './pod-view.ts';

const appArmorAnnotationPrefix = 'container.apparmor.security.beta.kubernetes.io/';

function allowedProfile(profile: string): boolean {
  return profile === '' || profile === 'runtime/default' || profile.startsWith('localhost/');
}

function appArmorProfileV1Dot0({ annotations }: PodView): CheckResult {
  const bad = Object.entries(annotations)
    .filter(([key, value]) => key.startsWith(appArmorAnnotationPrefix) && !allowedProfile(value))
    .map(([key, value]) => `${key}=${goQuote(value)}`);
  if (bad.length === 0) return allowed;
  const sorted = sortedUnique(bad);
  return forbidden(pluralize('forbidden AppArmor profile', 'forbidden AppArmor profiles', sorted.length), sorted.join(', '));
}

/** The appArmorProfile check, from v1.0 (the annotations only: the securityContext field came in 1.30). */
export const appArmorProfileCheck: Check = {
  id: 'appArmorProfile',
  level: 'baseline',
  versions: [{ minimumMinor: 0, checkPod: appArmorProfileV1Dot0 }],
};
