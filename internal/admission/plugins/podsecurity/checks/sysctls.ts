// Baseline: only namespaced sysctls known to be safe may be set; the safe list grows by version.
import { allowed, forbidden, type Check, type CheckResult } from './check.ts';
import { arrayOf, objectOf, podSecurityContext, stringOf, type PodView } from './pod-view.ts';

const safeV1Dot0 = [
  'kernel.shm_rmid_forced',
  'net.ipv4.ip_local_port_range',
  'net.ipv4.tcp_syncookies',
  'net.ipv4.ping_group_range',
  'net.ipv4.ip_unprivileged_port_start',
];
const safeV1Dot27 = [...safeV1Dot0, 'net.ipv4.ip_local_reserved_ports'];

/** A check that refuses every sysctl outside `safe`, listing them in the pod's order. */
function sysctlsAllowing(safe: readonly string[]): (pod: PodView) => CheckResult {
  const safeSet = new Set(safe);
  return ({ spec }) => {
    const names = arrayOf(podSecurityContext(spec)?.sysctls).map((s) => stringOf(objectOf(s)?.name));
    const bad = names.filter((name) => !safeSet.has(name));
    return bad.length === 0 ? allowed : forbidden('forbidden sysctls', bad.join(', '));
  };
}

/** The sysctls check: the v1.0 safe list, plus net.ipv4.ip_local_reserved_ports from v1.27. */
export const sysctlsCheck: Check = {
  id: 'sysctls',
  level: 'baseline',
  versions: [
    { minimumMinor: 0, checkPod: sysctlsAllowing(safeV1Dot0) },
    { minimumMinor: 27, checkPod: sysctlsAllowing(safeV1Dot27) },
  ],
};
