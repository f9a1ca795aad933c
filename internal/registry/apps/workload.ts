import type { KObject } from '../schema/declaration.ts';
import { immutable, invalidValue, required, type FieldError } from '../schema/field-errors.ts';
import { validateLabels } from '../schema/metadata-validation.ts';
import { defaultPodSpec } from '../core/pods.ts';
import { validatePodTemplateSpec } from '../core/pod-template.ts';
import { field } from '../schema/printers.ts';
import { jsonEqual } from '../../patch/json-value.ts';

/** The `spec` of a workload as a mutable record (created when missing). */
export function specOf(o: KObject): Record<string, unknown> {
  return (o.spec ??= {}) as Record<string, unknown>;
}

function selectorMatchesLabels(selector: Record<string, unknown>, labels: Record<string, string>): boolean {
  const matchLabels = (selector.matchLabels ?? {}) as Record<string, string>;
  return Object.entries(matchLabels).every(([k, v]) => labels[k] === v);
}

/** Defaults shared by workloads: replicas 1 (when `withReplicas`) and the pod template's spec. */
export function defaultWorkload(o: KObject, withReplicas: boolean): void {
  const spec = specOf(o);
  if (withReplicas) spec.replicas ??= 1;
  const template = spec.template as Record<string, unknown> | undefined;
  if (template && typeof template === 'object') defaultPodSpec((template.spec ??= {}) as Record<string, unknown>);
}

/** Validation shared by apps/v1 workloads: a required selector matching the template's labels, and the template itself. */
export function validateWorkload(o: KObject): FieldError[] {
  const errors: FieldError[] = [];
  const selector = field(o, 'spec.selector') as Record<string, unknown> | undefined;
  const labels = (field(o, 'spec.template.metadata.labels') ?? {}) as Record<string, string>;
  if (!selector || (Object.keys((selector.matchLabels ?? {}) as object).length === 0 && !Array.isArray(selector.matchExpressions))) {
    errors.push(required('spec.selector'));
  } else {
    errors.push(...validateLabels(selector.matchLabels, 'spec.selector.matchLabels'));
    if (!selectorMatchesLabels(selector, labels)) errors.push(invalidValue('spec.template.metadata.labels', labels, '`selector` does not match template `labels`'));
  }
  if (field(o, 'spec.template') === undefined) errors.push(required('spec.template'));
  else errors.push(...validatePodTemplateSpec(o, 'spec.template'));
  const replicas = field(o, 'spec.replicas');
  if (typeof replicas === 'number' && replicas < 0) errors.push(invalidValue('spec.replicas', replicas, 'must be greater than or equal to 0'));
  return errors;
}

/** apps/v1 selectors may not change after creation. */
export function validateSelectorImmutable(o: KObject, old: KObject): FieldError[] {
  return jsonEqual(field(old, 'spec.selector') ?? null, field(o, 'spec.selector') ?? null) ? [] : [immutable('spec.selector', field(o, 'spec.selector'))];
}
