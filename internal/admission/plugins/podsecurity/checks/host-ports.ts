// Baseline: containers may not bind ports on the host (ports[].hostPort must be 0 or unset).
import { allowed, forbidden, type Check, type CheckResult } from './check.ts';
import { containersPhrase, pluralize, sortedUnique } from './format.ts';
import { allContainers, arrayOf, containerName, objectOf, type PodView } from './pod-view.ts';

/** A port's hostPort when set to something other than 0. */
function hostPortOf(port: unknown): number | undefined {
  const hostPort = objectOf(port)?.hostPort;
  return typeof hostPort === 'number' && hostPort !== 0 ? hostPort : undefined;
}

function hostPortsV1Dot0({ spec }: PodView): CheckResult {
  const badContainers: string[] = [];
  const ports: string[] = [];
  for (const container of allContainers(spec)) {
    const used = arrayOf(container.ports).map(hostPortOf).filter((p) => p !== undefined);
    if (used.length === 0) continue;
    badContainers.push(containerName(container));
    ports.push(...used.map(String));
  }
  if (badContainers.length === 0) return allowed;
  // Ports are sorted as text (kube keeps them in a string set): "10000" before "80".
  const distinct = sortedUnique(ports);
  return forbidden(
    'hostPort',
    `${containersPhrase(badContainers)} ${pluralize('uses', 'use', badContainers.length)} ${pluralize('hostPort', 'hostPorts', distinct.length)} ${distinct.join(', ')}`,
  );
}

/** The hostPorts check, from v1.0. */
export const hostPortsCheck: Check = {
  id: 'hostPorts',
  level: 'baseline',
  versions: [{ minimumMinor: 0, checkPod: hostPortsV1Dot0 }],
};
