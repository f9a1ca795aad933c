// Baseline: sharing the host's network, PID or IPC namespace is forbidden (spec.hostNetwork,
// spec.hostPID, spec.hostIPC must be false or unset).
import { allowed, forbidden, type Check, type CheckResult } from './check.ts';
import { sortedUnique } from './format.ts';
import type { PodView } from './pod-view.ts';

function hostNamespacesV1Dot0({ spec }: PodView): CheckResult {
  const shared = ['hostNetwork', 'hostPID', 'hostIPC'].filter((field) => spec[field] === true);
  if (shared.length === 0) return allowed;
  return forbidden('host namespaces', sortedUnique(shared).join(', '));
}

/** The hostNamespaces check, from v1.0. */
export const hostNamespacesCheck: Check = {
  id: 'hostNamespaces',
  level: 'baseline',
  versions: [{ minimumMinor: 0, checkPod: hostNamespacesV1Dot0 }],
};
