// The namespace labels that choose a policy, and how they resolve against the defaults
// (k8s.io/pod-security-admission/api: PolicyToEvaluate).
import { invalidValue, type FieldError } from '../../../../registry/schema/field-errors.ts';
import { parseLevel } from './level.ts';
import type { LevelVersion, Policy } from './policy.ts';
import { parseVersion } from './version.ts';

/** The prefix of the labels, and of the audit annotations the plugin adds. */
export const podSecurityPrefix = 'pod-security.kubernetes.io/';

/** The six labels, by mode. */
export const modeLabels = {
  enforce: { level: `${podSecurityPrefix}enforce`, version: `${podSecurityPrefix}enforce-version` },
  audit: { level: `${podSecurityPrefix}audit`, version: `${podSecurityPrefix}audit-version` },
  warn: { level: `${podSecurityPrefix}warn`, version: `${podSecurityPrefix}warn-version` },
} as const;

/** A namespace's resolved policy, with a field error for each label that did not parse. */
export interface LabelPolicy {
  readonly policy: Policy;
  readonly errors: readonly FieldError[];
}

function labelField(label: string): string {
  return `metadata.labels[${label}]`;
}

/**
 * One mode's level and version from the labels, the default filling what is absent. A bad level
 * becomes `failLevel` (restricted for enforce: fail closed; privileged for audit and warn: fail
 * open); a bad version becomes latest.
 */
function resolveMode(labels: Readonly<Record<string, string>>, mode: keyof typeof modeLabels, fallback: LevelVersion, errors: FieldError[]): LevelVersion {
  const names = modeLabels[mode];
  let { level, version } = fallback;
  const levelText = labels[names.level];
  if (levelText !== undefined) {
    const parsed = parseLevel(levelText);
    level = parsed.level;
    if (parsed.error !== undefined) {
      errors.push(invalidValue(labelField(names.level), levelText, parsed.error));
      if (mode !== 'enforce') level = 'privileged';
    }
  }
  const versionText = labels[names.version];
  if (versionText !== undefined) {
    const parsed = parseVersion(versionText);
    version = parsed.version;
    if (parsed.error !== undefined) errors.push(invalidValue(labelField(names.version), versionText, parsed.error));
  }
  return { level, version };
}

/** The policy a namespace's labels select; always a usable policy, even when some labels are bad. */
export function policyFromLabels(labels: Readonly<Record<string, string>> | undefined, defaults: Policy): LabelPolicy {
  if (labels === undefined) return { policy: defaults, errors: [] };
  const errors: FieldError[] = [];
  const enforce = resolveMode(labels, 'enforce', defaults.enforce, errors);
  const audit = resolveMode(labels, 'audit', defaults.audit, errors);
  const warn = resolveMode(labels, 'warn', defaults.warn, errors);
  return { policy: { enforce, audit, warn }, errors };
}

/** Whether two lists of label errors are the same (kube compares them deeply). */
export function sameFieldErrors(a: readonly FieldError[], b: readonly FieldError[]): boolean {
  return a.length === b.length && a.every((e, i) => e.type === b[i]?.type && e.field === b[i]?.field && e.message === b[i]?.message);
}

/** Field errors as kube's aggregate prints them: one as is, several in brackets. */
export function formatFieldErrors(errors: readonly FieldError[]): string {
  const texts = errors.map((e) => `${e.field}: ${e.message}`);
  return texts.length === 1 ? (texts[0] ?? '') : `[${texts.join(', ')}]`;
}
