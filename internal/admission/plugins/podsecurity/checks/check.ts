// What a policy check is (k8s.io/pod-security-admission/policy: Check, VersionedCheck, CheckResult).
import type { PodView } from './pod-view.ts';

/** The outcome of one check on one pod: allowed, or why not. */
export interface CheckResult {
  readonly allowed: boolean;
  /** Short, always shown: `privileged`, `host namespaces`. Set when not allowed. */
  readonly forbiddenReason?: string;
  /** The specifics, shown in parentheses after the reason when checking one object. */
  readonly forbiddenDetail?: string;
}

/** Evaluates a pod's metadata and spec; pure, never throws on odd input. */
export type CheckPodFunction = (pod: PodView) => CheckResult;

/** One revision of a check, in force from `minimumMinor` (v1.<minimumMinor>) until the next revision. */
export interface VersionedCheck {
  readonly minimumMinor: number;
  readonly checkPod: CheckPodFunction;
  /** Baseline checks this (restricted) revision supersedes at the restricted level. */
  readonly overrides?: readonly string[];
}

/** A check of the standards: its id, its level, and its revisions by strictly increasing version. */
export interface Check {
  readonly id: string;
  readonly level: 'baseline' | 'restricted';
  readonly versions: readonly VersionedCheck[];
}

/** The result of an allowed check, shared. */
export const allowed: CheckResult = { allowed: true };

/** A refusal with its reason and optional detail. */
export function forbidden(forbiddenReason: string, forbiddenDetail = ''): CheckResult {
  return { allowed: false, forbiddenReason, forbiddenDetail };
}
