// Baseline: hostPath volumes expose the node's filesystem and are forbidden.
import { allowed, forbidden, type Check, type CheckResult } from './check.ts';
import { joinQuote, pluralize } from './format.ts';
import { arrayOf, objectOf, stringOf, type PodView } from './pod-view.ts';

function hostPathVolumesV1Dot0({ spec }: PodView): CheckResult {
  const names = arrayOf(spec.volumes)
    .map((v) => objectOf(v) ?? {})
    .filter((v) => objectOf(v.hostPath) !== undefined)
    .map((v) => stringOf(v.name));
  if (names.length === 0) return allowed;
  return forbidden('hostPath volumes', `${pluralize('volume', 'volumes', names.length)} ${joinQuote(names)}`);
}

/** The hostPathVolumes check, from v1.0 (superseded by restrictedVolumes at the restricted level). */
export const hostPathVolumesCheck: Check = {
  id: 'hostPathVolumes',
  level: 'baseline',
  versions: [{ minimumMinor: 0, checkPod: hostPathVolumesV1Dot0 }],
};
