// Baseline: the SELinux type may only be one of the container types, and a custom user or role is
// forbidden, at pod and container level.
import { allowed, forbidden, type Check, type CheckResult } from './check.ts';
import { containersPhrase, joinQuote, pluralize, sortedUnique } from './format.ts';
import { allContainers, containerName, containerSecurityContext, objectOf, podSecurityContext, stringOf, type JsonObject, type PodView } from './pod-view.ts';

const allowedTypesV1Dot0: ReadonlySet<string> = new Set(['', 'container_t', 'container_init_t', 'container_kvm_t']);

/** What was wrong across every seLinuxOptions of the pod (kube reports the union). */
interface SeLinuxFindings {
  readonly badTypes: string[];
  setUser: boolean;
  setRole: boolean;
}

/** Whether one seLinuxOptions is acceptable, noting what is wrong in `findings`. */
function validOptions(options: JsonObject, findings: SeLinuxFindings): boolean {
  let valid = true;
  const type = stringOf(options.type);
  if (!allowedTypesV1Dot0.has(type)) {
    valid = false;
    findings.badTypes.push(type);
  }
  if (stringOf(options.user) !== '') {
    valid = false;
    findings.setUser = true;
  }
  if (stringOf(options.role) !== '') {
    valid = false;
    findings.setRole = true;
  }
  return valid;
}

function seLinuxOptionsV1Dot0({ spec }: PodView): CheckResult {
  const findings: SeLinuxFindings = { badTypes: [], setUser: false, setRole: false };
  const badSetters: string[] = [];
  const podOptions = objectOf(podSecurityContext(spec)?.seLinuxOptions);
  if (podOptions !== undefined && !validOptions(podOptions, findings)) badSetters.push('pod');
  const badContainers = allContainers(spec)
    .filter((c) => {
      const options = objectOf(containerSecurityContext(c)?.seLinuxOptions);
      return options !== undefined && !validOptions(options, findings);
    })
    .map(containerName);
  if (badContainers.length > 0) badSetters.push(containersPhrase(badContainers));
  if (badSetters.length === 0) return allowed;
  const problems: string[] = [];
  const types = sortedUnique(findings.badTypes);
  if (types.length > 0) problems.push(`${pluralize('type', 'types', types.length)} ${joinQuote(types)}`);
  if (findings.setUser) problems.push('user may not be set');
  if (findings.setRole) problems.push('role may not be set');
  return forbidden('seLinuxOptions', `${badSetters.join(' and ')} set forbidden securityContext.seLinuxOptions: ${problems.join('; ')}`);
}

/** The seLinuxOptions check, from v1.0 (container_engine_t is allowed only from v1.31, after 1.28). */
export const seLinuxOptionsCheck: Check = {
  id: 'seLinuxOptions',
  level: 'baseline',
  versions: [{ minimumMinor: 0, checkPod: seLinuxOptionsV1Dot0 }],
};
