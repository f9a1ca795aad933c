// A JobSpec, wherever it appears (a Job's spec, a CronJob's jobTemplate.spec): kube-apiserver
// 1.28's validateJobSpec (pkg/apis/batch/validation/validation.go) for its counts, completion
// mode, pod failure policy and pod template.
import type { KObject } from '../schema/declaration.ts';
import { duplicate, immutable, invalidValue, notSupported, required, tooMany, type FieldError } from '../schema/field-errors.ts';
import { qualifiedName } from '../schema/name-validation.ts';
import { field } from '../schema/printers.ts';
import { validatePodTemplateSpec } from '../core/pod-template.ts';
import { stableStringify } from '../generic/stable-json.ts';

/** The Indexed completion mode's cap on parallelism (it bounds status.completedIndexes). */
export const indexedParallelismMax = 100000;
const maxFailedIndexesMax = 100000;
const completionsSoftLimit = 100000;
const parallelismLimitForHighCompletions = 10000;
const maxFailedIndexesLimitForHighCompletions = 10000;
const podFailurePolicyRulesMax = 20;
const onExitCodesValuesMax = 255;
const onPodConditionsPatternsMax = 20;

const completionModes = ['NonIndexed', 'Indexed'];
const actions = ['Count', 'FailIndex', 'FailJob', 'Ignore'];
const exitCodeOperators = ['In', 'NotIn'];
const conditionStatuses = ['False', 'True', 'Unknown'];
const podReplacementPolicies = ['Failed', 'TerminatingOrFailed'];

/** Go's %q of a list of strings: `["a" "b"]`. */
function goQuotedList(values: readonly string[]): string {
  return `[${values.map((v) => JSON.stringify(v)).join(' ')}]`;
}

function num(spec: Record<string, unknown>, key: string): number | undefined {
  const v = spec[key];
  return typeof v === 'number' ? v : undefined;
}

/** A field that must not be negative ("must be greater than or equal to 0"). */
export function nonNegative(path: string, value: unknown): FieldError[] {
  return typeof value === 'number' && value < 0 ? [invalidValue(path, value, 'must be greater than or equal to 0')] : [];
}

function validateCounts(spec: Record<string, unknown>, path: string): FieldError[] {
  const errors: FieldError[] = [];
  for (const key of ['parallelism', 'completions', 'activeDeadlineSeconds', 'backoffLimit', 'ttlSecondsAfterFinished', 'backoffLimitPerIndex', 'maxFailedIndexes']) {
    errors.push(...nonNegative(`${path}.${key}`, spec[key]));
  }
  if (spec.maxFailedIndexes !== undefined && spec.backoffLimitPerIndex === undefined) errors.push(required(`${path}.backoffLimitPerIndex`, 'when maxFailedIndexes is specified'));
  return errors;
}

function validateIndexed(spec: Record<string, unknown>, path: string): FieldError[] {
  const errors: FieldError[] = [];
  const completions = num(spec, 'completions');
  const parallelism = num(spec, 'parallelism');
  const maxFailed = num(spec, 'maxFailedIndexes');
  if (completions === undefined) errors.push(required(`${path}.completions`, 'when completion mode is Indexed'));
  if (parallelism !== undefined && parallelism > indexedParallelismMax) {
    errors.push(invalidValue(`${path}.parallelism`, parallelism, `must be less than or equal to ${indexedParallelismMax} when completion mode is Indexed`));
  }
  if (completions !== undefined && maxFailed !== undefined && maxFailed > completions) errors.push(invalidValue(`${path}.maxFailedIndexes`, maxFailed, 'must be less than or equal to completions'));
  if (maxFailed !== undefined && maxFailed > maxFailedIndexesMax) errors.push(invalidValue(`${path}.maxFailedIndexes`, maxFailed, `must be less than or equal to ${maxFailedIndexesMax}`));
  if (completions !== undefined && completions > completionsSoftLimit && spec.backoffLimitPerIndex !== undefined) {
    const beyond = `when completions are above ${completionsSoftLimit} and used with backoff limit per index`;
    if (maxFailed === undefined) errors.push(required(`${path}.maxFailedIndexes`, `must be specified when completions is above ${completionsSoftLimit}`));
    if (parallelism !== undefined && parallelism > parallelismLimitForHighCompletions) errors.push(invalidValue(`${path}.parallelism`, parallelism, `must be less than or equal to ${parallelismLimitForHighCompletions} ${beyond}`));
    if (maxFailed !== undefined && maxFailed > maxFailedIndexesLimitForHighCompletions) errors.push(invalidValue(`${path}.maxFailedIndexes`, maxFailed, `must be less than or equal to ${maxFailedIndexesLimitForHighCompletions} ${beyond}`));
  }
  return errors;
}

function validateCompletionMode(spec: Record<string, unknown>, path: string): FieldError[] {
  const mode = spec.completionMode;
  const errors: FieldError[] = [];
  if (mode !== undefined && !completionModes.includes(mode as string)) errors.push(notSupported(`${path}.completionMode`, mode, completionModes));
  if (mode === 'Indexed') errors.push(...validateIndexed(spec, path));
  if (mode === undefined || mode === 'NonIndexed') {
    for (const key of ['backoffLimitPerIndex', 'maxFailedIndexes']) {
      if (spec[key] !== undefined) errors.push(invalidValue(`${path}.${key}`, spec[key], 'requires indexed completion mode'));
    }
  }
  return errors;
}

interface ExitCodes {
  containerName?: unknown;
  operator?: unknown;
  values?: unknown;
}

function validateOnExitCodes(req: ExitCodes, path: string, containerNames: ReadonlySet<string>): FieldError[] {
  const errors: FieldError[] = [];
  if (req.operator === undefined || req.operator === '') errors.push(required(`${path}.operator`, `valid values: ${goQuotedList(exitCodeOperators)}`));
  else if (!exitCodeOperators.includes(req.operator as string)) errors.push(notSupported(`${path}.operator`, req.operator, exitCodeOperators));
  if (typeof req.containerName === 'string' && !containerNames.has(req.containerName)) {
    errors.push(invalidValue(`${path}.containerName`, req.containerName, 'must be one of the container or initContainer names in the pod template'));
  }
  const values = Array.isArray(req.values) ? (req.values as number[]) : [];
  if (values.length === 0) errors.push(invalidValue(`${path}.values`, values, 'at least one value is required'));
  else if (values.length > onExitCodesValuesMax) errors.push(tooMany(`${path}.values`, values.length, onExitCodesValuesMax));
  const seen = new Set<number>();
  values.forEach((v, j) => {
    if (req.operator === 'In' && v === 0) errors.push(invalidValue(`${path}.values[${j}]`, v, 'must not be 0 for the In operator'));
    if (seen.has(v)) errors.push(duplicate(`${path}.values[${j}]`, v));
    seen.add(v);
  });
  if (values.some((v, j) => j > 0 && (values[j - 1] as number) > v)) errors.push(invalidValue(`${path}.values`, values, 'must be ordered'));
  return errors;
}

function validateOnPodConditions(patterns: { type?: unknown; status?: unknown }[], path: string): FieldError[] {
  const errors: FieldError[] = [];
  if (patterns.length > onPodConditionsPatternsMax) errors.push(tooMany(path, patterns.length, onPodConditionsPatternsMax));
  patterns.forEach((p, j) => {
    const type = typeof p.type === 'string' ? p.type : '';
    for (const msg of qualifiedName(type)) errors.push(invalidValue(`${path}[${j}].type`, type, msg));
    if (p.status === undefined || p.status === '') errors.push(required(`${path}[${j}].status`, `valid values: ${goQuotedList(conditionStatuses)}`));
    else if (!conditionStatuses.includes(p.status as string)) errors.push(notSupported(`${path}[${j}].status`, p.status, conditionStatuses));
  });
  return errors;
}

interface Rule {
  action?: unknown;
  onExitCodes?: ExitCodes;
  onPodConditions?: { type?: unknown; status?: unknown }[];
}

function validateRule(spec: Record<string, unknown>, rule: Rule, path: string, containerNames: ReadonlySet<string>): FieldError[] {
  const errors: FieldError[] = [];
  if (rule.action === undefined || rule.action === '') errors.push(required(`${path}.action`, `valid values: ${goQuotedList(actions)}`));
  else if (rule.action === 'FailIndex') {
    if (spec.backoffLimitPerIndex === undefined) errors.push(invalidValue(`${path}.action`, rule.action, 'requires the backoffLimitPerIndex to be set'));
  } else if (!actions.includes(rule.action as string)) errors.push(notSupported(`${path}.action`, rule.action, actions));
  const hasExitCodes = rule.onExitCodes !== undefined && rule.onExitCodes !== null;
  const patterns = Array.isArray(rule.onPodConditions) ? rule.onPodConditions : [];
  if (hasExitCodes) errors.push(...validateOnExitCodes(rule.onExitCodes as ExitCodes, `${path}.onExitCodes`, containerNames));
  if (patterns.length > 0) errors.push(...validateOnPodConditions(patterns, `${path}.onPodConditions`));
  if (hasExitCodes && patterns.length > 0) errors.push({ type: 'FieldValueInvalid', field: path, message: 'Invalid value: specifying both OnExitCodes and OnPodConditions is not supported' });
  if (!hasExitCodes && patterns.length === 0) errors.push({ type: 'FieldValueInvalid', field: path, message: 'Invalid value: specifying one of OnExitCodes and OnPodConditions is required' });
  return errors;
}

function validatePodFailurePolicy(o: KObject, spec: Record<string, unknown>, path: string): FieldError[] {
  const policy = spec.podFailurePolicy as { rules?: unknown } | undefined;
  if (policy === undefined || policy === null) return [];
  const rules = Array.isArray(policy.rules) ? (policy.rules as Rule[]) : [];
  const errors: FieldError[] = [];
  if (rules.length > podFailurePolicyRulesMax) errors.push(tooMany(`${path}.podFailurePolicy.rules`, rules.length, podFailurePolicyRulesMax));
  const containerNames = new Set<string>();
  for (const list of ['containers', 'initContainers']) {
    const containers = field(o, `${path}.template.spec.${list}`);
    if (Array.isArray(containers)) for (const c of containers as { name?: unknown }[]) containerNames.add(String(c.name));
  }
  rules.forEach((rule, i) => errors.push(...validateRule(spec, rule, `${path}.podFailurePolicy.rules[${i}]`, containerNames)));
  return errors;
}

function validateJobRestartPolicy(spec: Record<string, unknown>, path: string, o: KObject): FieldError[] {
  const at = `${path}.template.spec.restartPolicy`;
  const policy = field(o, at);
  if (policy === 'Always' || policy === undefined || policy === '') return [required(at, 'valid values: "OnFailure", "Never"')];
  if (policy !== 'OnFailure' && policy !== 'Never') return [notSupported(at, policy, ['OnFailure', 'Never'])];
  if (spec.podFailurePolicy !== undefined && spec.podFailurePolicy !== null && policy !== 'Never') return [invalidValue(at, policy, 'only "Never" is supported when podFailurePolicy is specified')];
  return [];
}

/**
 * Validates the JobSpec at `path` of `o` (validateJobSpec: everything but the selector, which a
 * Job and a CronJob's template treat differently).
 */
export function validateJobSpec(o: KObject, path: string): FieldError[] {
  const spec = (field(o, path) ?? {}) as Record<string, unknown>;
  const errors = [...validateCounts(spec, path), ...validateCompletionMode(spec, path), ...validatePodFailurePolicy(o, spec, path)];
  const replacement = spec.podReplacementPolicy;
  if (replacement !== undefined && replacement !== null) {
    const hasFailurePolicy = spec.podFailurePolicy !== undefined && spec.podFailurePolicy !== null;
    if (hasFailurePolicy && replacement !== 'Failed') errors.push(notSupported(`${path}.podReplacementPolicy`, replacement, ['Failed']));
    else if (!hasFailurePolicy && !podReplacementPolicies.includes(replacement as string)) errors.push(notSupported(`${path}.podReplacementPolicy`, replacement, podReplacementPolicies));
  }
  errors.push(...validatePodTemplateSpec(o, `${path}.template`), ...validateJobRestartPolicy(spec, path, o));
  return errors;
}

/**
 * Drops the JobSpec fields of features that are off by default in 1.28 (JobBackoffLimitPerIndex
 * and JobPodReplacementPolicy are alpha), as the strategies do; on update a field the stored
 * object already had stays. A backoffLimit the dropped backoffLimitPerIndex would have defaulted
 * is kept at that default (math.MaxInt32), as decoding defaulted it first.
 */
export function dropDisabledJobFields(spec: Record<string, unknown>, old?: Record<string, unknown>): void {
  if (old === undefined && spec.backoffLimitPerIndex !== undefined && spec.backoffLimit === undefined) spec.backoffLimit = 2147483647;
  for (const key of ['backoffLimitPerIndex', 'maxFailedIndexes', 'podReplacementPolicy']) {
    if (old?.[key] === undefined) delete spec[key];
  }
  const policy = spec.podFailurePolicy as { rules?: unknown } | undefined;
  if (old === undefined && policy !== undefined && policy !== null && Array.isArray(policy.rules)) {
    policy.rules = (policy.rules as Rule[]).filter((r) => r.action !== 'FailIndex');
  }
}

/**
 * A Job's pod template is immutable (validatePodTemplateUpdate), except that a suspended Job that
 * never started may change its scheduling directives: node affinity, node selector, tolerations,
 * labels, annotations and scheduling gates.
 */
export function validateJobTemplateUpdate(o: KObject, old: KObject, schedulingMutable: boolean): FieldError[] {
  const template = (field(o, 'spec.template') ?? {}) as Record<string, unknown>;
  const before = structuredClone((field(old, 'spec.template') ?? {}) as Record<string, unknown>);
  if (schedulingMutable) {
    const spec = (template.spec ?? {}) as Record<string, unknown>;
    const oldSpec = (before.spec ??= {}) as Record<string, unknown>;
    const affinity = spec.affinity as Record<string, unknown> | undefined;
    const oldAffinity = oldSpec.affinity as Record<string, unknown> | undefined;
    if (affinity === undefined && oldAffinity !== undefined) {
      delete oldAffinity.nodeAffinity;
      if (Object.keys(oldAffinity).length === 0) delete oldSpec.affinity;
    } else if (affinity !== undefined) {
      oldSpec.affinity = { ...oldAffinity, nodeAffinity: affinity.nodeAffinity };
      if (affinity.nodeAffinity === undefined) delete (oldSpec.affinity as Record<string, unknown>).nodeAffinity;
    }
    for (const key of ['nodeSelector', 'tolerations', 'schedulingGates']) copyField(spec, oldSpec, key);
    const meta = (template.metadata ?? {}) as Record<string, unknown>;
    const oldMeta = (before.metadata ??= {}) as Record<string, unknown>;
    for (const key of ['labels', 'annotations']) copyField(meta, oldMeta, key);
  }
  return stableStringify(template) === stableStringify(before) ? [] : [immutable('spec.template', template)];
}

function copyField(from: Record<string, unknown>, to: Record<string, unknown>, key: string): void {
  if (from[key] === undefined) delete to[key];
  else to[key] = from[key];
}
