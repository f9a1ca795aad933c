// The warning for labelling an exempt namespace with a policy that will never apply
// (pod-security-admission's exemptNamespaceWarning).
import { modeLabels } from './api/namespace-labels.ts';
import { equivalentPolicy, formatLevelVersion, fullyPrivileged, type Policy } from './api/policy.ts';

/**
 * The warning, or undefined when the policy checks nothing or nothing more than the defaults; it
 * names only the non-privileged modes the labels set explicitly.
 */
export function exemptNamespaceWarning(namespace: string, policy: Policy, defaults: Policy, labels: Readonly<Record<string, string>>): string | undefined {
  if (fullyPrivileged(policy) || equivalentPolicy(policy, defaults)) return undefined;
  const parts: string[] = [];
  for (const mode of ['enforce', 'audit', 'warn'] as const) {
    const labelled = modeLabels[mode].level in labels || modeLabels[mode].version in labels;
    if (policy[mode].level !== 'privileged' && labelled) parts.push(`${mode}=${formatLevelVersion(policy[mode])}`);
  }
  return `namespace "${namespace}" is exempt from Pod Security, and the policy (${parts.join(', ')}) will be ignored`;
}
