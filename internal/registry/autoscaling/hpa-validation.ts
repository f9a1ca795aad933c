// kube-apiserver 1.28's validation of an autoscaling/v2 HorizontalPodAutoscaler
// (pkg/apis/autoscaling/validation/validation.go), with its field paths and messages; the
// HPAScaleToZero gate is off, so minReplicas starts at 1.
import type { KObject } from '../schema/declaration.ts';
import { forbidden, invalidShown, invalidValue, notSupported, required, type FieldError } from '../schema/field-errors.ts';
import { pathSegmentName } from '../schema/name-validation.ts';
import { quantityValue } from '../schema/wire-formats.ts';
import { type Json } from './hpa-metric-conversion.ts';
import { maxPeriodSeconds, maxStabilizationWindowSeconds } from './limits.ts';

const metricSourceTypes = ['ContainerResource', 'External', 'Object', 'Pods', 'Resource'];
const sourceFields: ReadonlyArray<readonly [type: string, field: string]> = [['Object', 'object'], ['External', 'external'], ['Pods', 'pods'], ['Resource', 'resource'], ['ContainerResource', 'containerResource']];
const selectPolicies = ['Disabled', 'Max', 'Min'];
const policyTypes = ['Percent', 'Pods'];

function obj(v: unknown): Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : {};
}

function has(v: Json, key: string): boolean {
  return v[key] !== undefined && v[key] !== null;
}

/** ValidateCrossVersionObjectReference: kind and name required, each a valid path segment. */
export function validateReference(ref: Json, at: string): FieldError[] {
  const errors: FieldError[] = [];
  for (const f of ['kind', 'name']) {
    const value = typeof ref[f] === 'string' ? (ref[f] as string) : '';
    if (value === '') errors.push(required(`${at}.${f}`));
    else for (const msg of pathSegmentName(value)) errors.push(invalidValue(`${at}.${f}`, value, msg));
  }
  return errors;
}

function validateIdentifier(id: Json, at: string): FieldError[] {
  const name = typeof id.name === 'string' ? id.name : '';
  if (name === '') return [required(`${at}.name`, 'must specify a metric name')];
  return pathSegmentName(name).map((msg) => invalidValue(`${at}.name`, name, msg));
}

function positive(v: unknown): boolean {
  const n = quantityValue(typeof v === 'number' ? v : String(v));
  return n !== undefined && n > 0;
}

function validateTarget(t: Json, at: string): FieldError[] {
  const errors: FieldError[] = [];
  const type = typeof t.type === 'string' ? t.type : '';
  if (type === '') errors.push(required(`${at}.type`, 'must specify a metric target type'));
  if (!['Utilization', 'Value', 'AverageValue'].includes(type)) errors.push(invalidValue(`${at}.type`, type, 'must be either Utilization, Value, or AverageValue'));
  for (const f of ['value', 'averageValue']) if (has(t, f) && !positive(t[f])) errors.push(invalidShown(`${at}.${f}`, String(t[f]), 'must be positive'));
  if (has(t, 'averageUtilization') && (t.averageUtilization as number) < 1) errors.push(invalidValue(`${at}.averageUtilization`, t.averageUtilization, 'must be greater than 0'));
  return errors;
}

function validateSource(field: string, src: Json, at: string): FieldError[] {
  const target = obj(src.target);
  const errors: FieldError[] = [];
  if (field === 'object') errors.push(...validateReference(obj(src.describedObject), `${at}.describedObject`));
  if (field === 'object' || field === 'external' || field === 'pods') errors.push(...validateIdentifier(obj(src.metric), `${at}.metric`));
  if (field === 'resource' || field === 'containerResource') {
    if (typeof src.name !== 'string' || src.name === '') errors.push(required(`${at}.name`, 'must specify a resource name'));
    if (field === 'containerResource' && (typeof src.container !== 'string' || src.container === '')) errors.push(required(`${at}.container`, 'must specify a container'));
  }
  errors.push(...validateTarget(target, `${at}.target`));
  if (field === 'object' && !has(target, 'value') && !has(target, 'averageValue')) errors.push(required(`${at}.target.averageValue`, 'must set either a target value or averageValue'));
  if (field === 'external') {
    if (!has(target, 'value') && !has(target, 'averageValue')) errors.push(required(`${at}.target.averageValue`, 'must set either a target value for metric or a per-pod target'));
    if (has(target, 'value') && has(target, 'averageValue')) errors.push(forbidden(`${at}.target.value`, 'may not set both a target value for metric and a per-pod target'));
  }
  if (field === 'pods' && !has(target, 'averageValue')) errors.push(required(`${at}.target.averageValue`, 'must specify a positive target averageValue'));
  if (field === 'resource' || field === 'containerResource') {
    if (!has(target, 'averageUtilization') && !has(target, 'averageValue')) errors.push(required(`${at}.target.averageUtilization`, 'must set either a target raw value or a target utilization'));
    if (has(target, 'averageUtilization') && has(target, 'averageValue')) errors.push(forbidden(`${at}.target.averageValue`, 'may not set both a target raw value and a target utilization'));
  }
  return errors;
}

function validateMetric(m: Json, at: string): FieldError[] {
  const errors: FieldError[] = [];
  const type = typeof m.type === 'string' ? m.type : '';
  if (type === '') errors.push(required(`${at}.type`, 'must specify a metric source type'));
  if (!metricSourceTypes.includes(type)) errors.push(notSupported(`${at}.type`, type, metricSourceTypes));
  const present = sourceFields.filter(([, f]) => has(m, f)).map(([, f]) => f);
  // Only the first source set is validated, as upstream.
  const first = present[0];
  if (first !== undefined) errors.push(...validateSource(first, obj(m[first]), `${at}.${first}`));
  const expected = sourceFields.find(([t]) => t === type)?.[1];
  if (expected === undefined) errors.push(notSupported(`${at}.type`, type, metricSourceTypes));
  else if (!has(m, expected)) errors.push(required(`${at}.${expected}`, 'must populate information for the given metric source'));
  if (present.length !== 1) for (const f of present.filter((f) => f !== expected)) errors.push(forbidden(`${at}.${f}`, 'must populate the given metric source only'));
  return errors;
}

function validateRules(rules: Json, at: string): FieldError[] {
  const errors: FieldError[] = [];
  const window = rules.stabilizationWindowSeconds;
  if (typeof window === 'number' && window < 0) errors.push(invalidValue(`${at}.stabilizationWindowSeconds`, window, 'must be greater than or equal to zero'));
  if (typeof window === 'number' && window > maxStabilizationWindowSeconds) errors.push(invalidValue(`${at}.stabilizationWindowSeconds`, window, `must be less than or equal to ${maxStabilizationWindowSeconds}`));
  if (has(rules, 'selectPolicy') && !selectPolicies.includes(rules.selectPolicy as string)) errors.push(notSupported(`${at}.selectPolicy`, rules.selectPolicy, selectPolicies));
  const policies = Array.isArray(rules.policies) ? rules.policies : [];
  if (policies.length === 0) errors.push(required(`${at}.policies`, 'must specify at least one Policy'));
  policies.forEach((raw, i) => {
    const p = obj(raw);
    const pat = `${at}.policies[${i}]`;
    if (!policyTypes.includes(p.type as string)) errors.push(notSupported(`${pat}.type`, p.type ?? '', policyTypes));
    const value = typeof p.value === 'number' ? p.value : 0;
    const period = typeof p.periodSeconds === 'number' ? p.periodSeconds : 0;
    if (value <= 0) errors.push(invalidValue(`${pat}.value`, value, 'must be greater than zero'));
    if (period <= 0) errors.push(invalidValue(`${pat}.periodSeconds`, period, 'must be greater than zero'));
    if (period > maxPeriodSeconds) errors.push(invalidValue(`${pat}.periodSeconds`, period, `must be less than or equal to ${maxPeriodSeconds}`));
  });
  return errors;
}

/** validateHorizontalPodAutoscalerSpec and the status rules, over a (defaulted) v2 object. */
export function validateHpa(o: KObject): FieldError[] {
  const spec = obj(o.spec);
  const errors: FieldError[] = [];
  const min = spec.minReplicas;
  const max = typeof spec.maxReplicas === 'number' ? spec.maxReplicas : 0;
  if (typeof min === 'number' && min < 1) errors.push(invalidValue('spec.minReplicas', min, 'must be greater than or equal to 1'));
  if (max < 1) errors.push(invalidValue('spec.maxReplicas', max, 'must be greater than 0'));
  if (typeof min === 'number' && max < min) errors.push(invalidValue('spec.maxReplicas', max, 'must be greater than or equal to `minReplicas`'));
  errors.push(...validateReference(obj(spec.scaleTargetRef), 'spec.scaleTargetRef'));
  const metrics = Array.isArray(spec.metrics) ? spec.metrics : [];
  metrics.forEach((m, i) => errors.push(...validateMetric(obj(m), `spec.metrics[${i}]`)));
  if (has(spec, 'behavior')) {
    const behavior = obj(spec.behavior);
    for (const f of ['scaleUp', 'scaleDown']) if (has(behavior, f)) errors.push(...validateRules(obj(behavior[f]), `spec.behavior.${f}`));
  }
  const status = obj(o.status);
  for (const f of ['currentReplicas', 'desiredReplicas']) {
    const v = status[f];
    if (typeof v === 'number' && v < 0) errors.push(invalidValue(`status.${f}`, v, 'must be greater than or equal to 0'));
  }
  return errors;
}
