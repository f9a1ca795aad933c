// Runs one check's revision at a version on a hand-built pod, and asserts kube's exact wording.
import assert from 'node:assert/strict';
import type { Check, CheckResult } from '../../../../internal/admission/plugins/podsecurity/checks/check.ts';
import type { PolicyVersion } from '../../../../internal/admission/plugins/podsecurity/api/version.ts';
import { podView } from '../../../../internal/admission/plugins/podsecurity/checks/pod-view.ts';
import { revisionAt } from '../../../../internal/admission/plugins/podsecurity/checks/registry.ts';

/** Runs the revision of `check` in force at `version` on a pod. */
export function runCheck(check: Check, spec: Record<string, unknown>, annotations: Record<string, string> = {}, version: PolicyVersion = 'latest'): CheckResult {
  const revision = revisionAt(check, version);
  assert.ok(revision, `${check.id} applies at ${String(version)}`);
  return revision.checkPod(podView({ annotations }, spec));
}

/** Asserts a refusal with exactly this reason and detail. */
export function assertForbidden(result: CheckResult, reason: string, detail: string): void {
  assert.deepEqual({ allowed: result.allowed, reason: result.forbiddenReason, detail: result.forbiddenDetail }, { allowed: false, reason, detail });
}
