// A namespace's policy: a level and version for each of the three modes
// (k8s.io/pod-security-admission/api: LevelVersion, Policy).
import type { Level } from './level.ts';
import { formatVersion, type PolicyVersion } from './version.ts';

/** One mode's level and the version of the standards it is pinned to. */
export interface LevelVersion {
  readonly level: Level;
  readonly version: PolicyVersion;
}

/** The policy of the three modes: enforce refuses, audit annotates the audit event, warn warns. */
export interface Policy {
  readonly enforce: LevelVersion;
  readonly audit: LevelVersion;
  readonly warn: LevelVersion;
}

/** The policy kube applies when neither labels nor configuration say otherwise. */
export const privilegedLatest: LevelVersion = { level: 'privileged', version: 'latest' };

/** `<level>:<version>`, as kube names a policy in its messages (`restricted:latest`). */
export function formatLevelVersion(lv: LevelVersion): string {
  return `${lv.level}:${formatVersion(lv.version)}`;
}

/** Whether two level-versions are the same pair. */
export function sameLevelVersion(a: LevelVersion, b: LevelVersion): boolean {
  return a.level === b.level && a.version === b.version;
}

/** Whether every mode is privileged: nothing can be refused, warned or audited. */
export function fullyPrivileged(policy: Policy): boolean {
  return policy.enforce.level === 'privileged' && policy.audit.level === 'privileged' && policy.warn.level === 'privileged';
}

/** Whether two level-versions check the same things (the version of `privileged` does not matter). */
function equivalentLevelVersion(a: LevelVersion, b: LevelVersion): boolean {
  return a.level === b.level && (a.level === 'privileged' || a.version === b.version);
}

/** Whether two policies check the same things in every mode. */
export function equivalentPolicy(a: Policy, b: Policy): boolean {
  return equivalentLevelVersion(a.enforce, b.enforce) && equivalentLevelVersion(a.audit, b.audit) && equivalentLevelVersion(a.warn, b.warn);
}
