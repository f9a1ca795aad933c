// HorizontalPodAutoscalers are stored as autoscaling/v2 (kube-apiserver's storage version) and
// served as autoscaling/v1 too, converted as pkg/apis/autoscaling/v1/conversion.go converts them:
// v1's targetCPUUtilizationPercentage is v2's first cpu Resource metric with a utilization target,
// and what v1 cannot say (the other metrics, the current metrics, the behavior, the conditions)
// travels in the autoscaling.alpha.kubernetes.io annotations, so that a v2 object read through v1
// and written back loses nothing. Stored objects never carry those annotations.
import { badRequest } from '../errors/status-error.ts';
import { builtinSchema } from '../schema/builtin-schemas.ts';
import type { KObject } from '../schema/declaration.ts';
import { arr } from '../schema/field-schema.ts';
import { checkSchema } from '../schema/schema-check.ts';
import { metricSpecFromV1, metricSpecToV1, metricStatusFromV1, metricStatusToV1, objectAt, present, type Json } from './hpa-metric-conversion.ts';

/** Where v1 keeps the metrics other than a cpu utilization target. */
export const metricSpecsAnnotation = 'autoscaling.alpha.kubernetes.io/metrics';
/** Where v1 keeps every current metric. */
export const metricStatusesAnnotation = 'autoscaling.alpha.kubernetes.io/current-metrics';
/** Where v1 keeps the status conditions. */
export const conditionsAnnotation = 'autoscaling.alpha.kubernetes.io/conditions';
/** Where v1 keeps spec.behavior (as Go marshals the internal type: Go field names). */
export const behaviorAnnotation = 'autoscaling.alpha.kubernetes.io/behavior';
/** The cpu utilization a v1 object without any metric stands for (autoscaling.DefaultCPUUtilization). */
export const defaultCpuUtilization = 80;

const roundTripAnnotations = [metricSpecsAnnotation, metricStatusesAnnotation, conditionsAnnotation, behaviorAnnotation];
const kind = 'autoscaling/v1 HorizontalPodAutoscaler';

/** A copy of the object's metadata without the round-trip annotations (DropRoundTripHorizontalPodAutoscalerAnnotations). */
function metadataWithoutRoundTrip(obj: KObject): KObject['metadata'] {
  const metadata = structuredClone(obj.metadata);
  const annotations = metadata.annotations;
  if (annotations === undefined || annotations === null || !roundTripAnnotations.some((a) => a in annotations)) return metadata;
  for (const a of roundTripAnnotations) delete annotations[a];
  if (Object.keys(annotations).length === 0) delete metadata.annotations;
  return metadata;
}

function isCpu(m: Json, source: 'resource', key: 'target' | 'current'): Json | undefined {
  if (m.type !== 'Resource') return undefined;
  const r = m[source];
  if (typeof r !== 'object' || r === null || (r as Json).name !== 'cpu') return undefined;
  const inner = (r as Json)[key];
  return typeof inner === 'object' && inner !== null ? (inner as Json) : {};
}

function objects(v: unknown): Json[] {
  return Array.isArray(v) ? v.filter((x): x is Json => typeof x === 'object' && x !== null && !Array.isArray(x)) : [];
}

// The behavior as Go's json.Marshal writes the internal type, which has no json tags.
function rulesToGo(r: unknown): unknown {
  if (typeof r !== 'object' || r === null) return null;
  const rules = r as Json;
  const policies = Array.isArray(rules.policies) ? objects(rules.policies).map((p) => ({ Type: p.type ?? '', Value: p.value ?? 0, PeriodSeconds: p.periodSeconds ?? 0 })) : null;
  return { StabilizationWindowSeconds: present(rules, 'stabilizationWindowSeconds') ?? null, SelectPolicy: present(rules, 'selectPolicy') ?? null, Policies: policies };
}

/** A JSON object's field as encoding/json finds it: the exact name, else any case. */
function goField(v: Json, name: string): unknown {
  if (name in v) return v[name];
  const key = Object.keys(v).find((k) => k.toLowerCase() === name.toLowerCase());
  return key === undefined ? undefined : v[key];
}

function rulesFromGo(r: unknown): Json | undefined {
  if (typeof r !== 'object' || r === null || Array.isArray(r)) return undefined;
  const rules = r as Json;
  const out: Json = {};
  const window = goField(rules, 'StabilizationWindowSeconds');
  const select = goField(rules, 'SelectPolicy');
  const policies = goField(rules, 'Policies');
  if (window !== undefined && window !== null) out.stabilizationWindowSeconds = window;
  if (select !== undefined && select !== null) out.selectPolicy = select;
  // Values Go cannot decode are kept as given, for goDecodeErrors to find.
  if (Array.isArray(policies)) out.policies = policies.map(policyFromGo);
  else if (policies !== undefined && policies !== null) out.policies = policies;
  return out;
}

/** One scaling policy of the annotation (Go field names); a null one is Go's zero policy. */
function policyFromGo(p: unknown): unknown {
  if (p === null) return { type: '', value: 0, periodSeconds: 0 };
  if (typeof p !== 'object' || Array.isArray(p)) return p;
  const policy = p as Json;
  return { type: goField(policy, 'Type') ?? '', value: goField(policy, 'Value') ?? 0, periodSeconds: goField(policy, 'PeriodSeconds') ?? 0 };
}

/** spec.behavior from the annotation; upstream ignores an annotation that does not decode, or decodes to the zero behavior. */
function behaviorFromAnnotation(text: string): Json | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return undefined;
  const up = goField(parsed as Json, 'ScaleUp');
  const down = goField(parsed as Json, 'ScaleDown');
  // A side Go cannot decode into its struct fails the whole annotation, which is then ignored.
  if (!goStructOrNull(up) || !goStructOrNull(down)) return undefined;
  const scaleUp = rulesFromGo(up);
  const scaleDown = rulesFromGo(down);
  if (scaleUp === undefined && scaleDown === undefined) return undefined;
  const behavior = { ...(scaleUp ? { scaleUp } : {}), ...(scaleDown ? { scaleDown } : {}) };
  return goDecodeError([behavior], 'io.k8s.api.autoscaling.v2.HorizontalPodAutoscalerBehavior') === undefined ? behavior : undefined;
}

/** Whether Go decodes `v` into a struct pointer: a JSON object, or null (or absent). */
function goStructOrNull(v: unknown): boolean {
  return v === undefined || v === null || (typeof v === 'object' && !Array.isArray(v));
}

/**
 * The first error Go's decoder answers for converted annotation values that their typed fields
 * cannot hold (a wrong JSON type, an int32 out of range, a malformed quantity or time), checked
 * against the v2 `definition`. As the decoder does, unknown fields are dropped and quantities
 * canonicalized ("0.5" as "500m"), in place.
 */
function goDecodeError(values: unknown[], definition: string): string | undefined {
  return checkSchema(values, arr(builtinSchema(definition)), true, '', true).decodeErrors[0];
}

/** The converted `values` of `annotation` as Go decodes them; 400 on a value their types cannot hold. */
function decodedAs(values: Json[], definition: string, annotation: string): Json[] {
  const refused = goDecodeError(values, definition);
  if (refused !== undefined) throw badRequest(`unable to convert the ${kind}: annotation ${annotation}: ${refused}`);
  return values;
}

/** The list an annotation holds; text that is not a JSON list of objects is the 400 Go's decoder answers. */
function annotationList(text: string, annotation: string): Json[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw badRequest(`unable to convert the ${kind}: annotation ${annotation}: ${(err as Error).message}`);
  }
  if (parsed === null) return [];
  if (!Array.isArray(parsed) || parsed.some((x) => typeof x !== 'object' || Array.isArray(x))) {
    throw badRequest(`unable to convert the ${kind}: annotation ${annotation}: json: cannot unmarshal into a list of objects`);
  }
  // A null item decodes to Go's zero struct.
  return parsed.map((x: Json | null) => x ?? {});
}

function conditionToV1(c: Json): Json {
  return { type: c.type ?? '', status: c.status ?? '', lastTransitionTime: present(c, 'lastTransitionTime') ?? null, ...(c.reason ? { reason: c.reason } : {}), ...(c.message ? { message: c.message } : {}) };
}

function conditionFromV1(c: Json): Json {
  const out: Json = { type: c.type ?? '', status: c.status ?? '' };
  for (const f of ['lastTransitionTime', 'reason', 'message']) if (present(c, f) !== undefined && c[f] !== '') out[f] = c[f];
  return out;
}

function statusToV1(status: Json): Json {
  const out: Json = {};
  for (const f of ['observedGeneration', 'lastScaleTime']) if (present(status, f) !== undefined) out[f] = status[f];
  out.currentReplicas = present(status, 'currentReplicas') ?? 0;
  out.desiredReplicas = present(status, 'desiredReplicas') ?? 0;
  // No break upstream: the last cpu status with a utilization wins.
  for (const m of objects(status.currentMetrics)) {
    const utilization = present(isCpu(m, 'resource', 'current') ?? {}, 'averageUtilization');
    if (utilization !== undefined) out.currentCPUUtilizationPercentage = utilization;
  }
  return out;
}

/** The autoscaling/v1 form of a stored (v2) HorizontalPodAutoscaler (a new object). */
export function hpaToV1(v2: KObject): KObject {
  const spec = (objectAt(v2, 'spec', kind) ?? {}) as Json;
  const status = (objectAt(v2, 'status', kind) ?? {}) as Json;
  const metrics = objects(spec.metrics);
  const out: KObject = { apiVersion: 'autoscaling/v1', kind: 'HorizontalPodAutoscaler', metadata: metadataWithoutRoundTrip(v2) };
  const v1Spec: Json = { scaleTargetRef: structuredClone(spec.scaleTargetRef ?? { kind: '', name: '' }) };
  if (present(spec, 'minReplicas') !== undefined) v1Spec.minReplicas = spec.minReplicas;
  v1Spec.maxReplicas = spec.maxReplicas ?? 0;
  const cpu = metrics.map((m) => isCpu(m, 'resource', 'target')).find((t) => t !== undefined);
  if (cpu !== undefined && present(cpu, 'averageUtilization') !== undefined) v1Spec.targetCPUUtilizationPercentage = cpu.averageUtilization;
  out.spec = v1Spec;
  out.status = statusToV1(status);
  const annotations: Record<string, string> = {};
  const others = metrics.filter((m) => present(isCpu(m, 'resource', 'target') ?? {}, 'averageUtilization') === undefined);
  if (others.length > 0) annotations[metricSpecsAnnotation] = JSON.stringify(others.map((m) => metricSpecToV1(m, kind)));
  const current = objects(status.currentMetrics);
  if (current.length > 0) annotations[metricStatusesAnnotation] = JSON.stringify(current.map((m) => metricStatusToV1(m, kind)));
  const behavior = objectAt(spec, 'behavior', kind);
  if (behavior !== undefined) annotations[behaviorAnnotation] = JSON.stringify({ ScaleUp: rulesToGo(behavior.scaleUp), ScaleDown: rulesToGo(behavior.scaleDown) });
  const conditions = objects(status.conditions);
  if (conditions.length > 0) annotations[conditionsAnnotation] = JSON.stringify(conditions.map(conditionToV1));
  if (Object.keys(annotations).length > 0) out.metadata.annotations = { ...(out.metadata.annotations ?? {}), ...annotations };
  return out;
}

function statusFromV1(status: Json): Json {
  const out: Json = {};
  for (const f of ['observedGeneration', 'lastScaleTime']) if (present(status, f) !== undefined) out[f] = status[f];
  // v2's currentReplicas is omitted when zero (omitempty), v1's always written.
  if (present(status, 'currentReplicas') !== undefined && status.currentReplicas !== 0) out.currentReplicas = status.currentReplicas;
  out.desiredReplicas = present(status, 'desiredReplicas') ?? 0;
  const utilization = present(status, 'currentCPUUtilizationPercentage');
  if (utilization !== undefined) out.currentMetrics = [{ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: utilization } } }];
  return out;
}

/** The stored (v2) form of an autoscaling/v1 HorizontalPodAutoscaler (a new object); 400 on an annotation Go could not decode. */
export function hpaFromV1(v1: KObject): KObject {
  const spec = (objectAt(v1, 'spec', kind) ?? {}) as Json;
  const status = (objectAt(v1, 'status', kind) ?? {}) as Json;
  const annotations = v1.metadata.annotations ?? {};
  const out: KObject = { apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', metadata: metadataWithoutRoundTrip(v1) };
  const v2Spec: Json = { scaleTargetRef: structuredClone(spec.scaleTargetRef ?? { kind: '', name: '' }) };
  if (present(spec, 'minReplicas') !== undefined) v2Spec.minReplicas = spec.minReplicas;
  v2Spec.maxReplicas = spec.maxReplicas ?? 0;
  const target = present(spec, 'targetCPUUtilizationPercentage');
  let metrics: Json[] = target === undefined ? [] : [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: target } } }];
  const v2Status = statusFromV1(status);
  const others = annotations[metricSpecsAnnotation];
  // The cpu metric of the spec goes after the others, as upstream appends it.
  if (typeof others === 'string') {
    const converted = annotationList(others, metricSpecsAnnotation).map((m) => metricSpecFromV1(m, kind));
    metrics = [...decodedAs(converted, 'io.k8s.api.autoscaling.v2.MetricSpec', metricSpecsAnnotation), ...metrics];
  }
  const current = annotations[metricStatusesAnnotation];
  if (typeof current === 'string') {
    const converted = annotationList(current, metricStatusesAnnotation).map((m) => metricStatusFromV1(m, kind));
    v2Status.currentMetrics = decodedAs(converted, 'io.k8s.api.autoscaling.v2.MetricStatus', metricStatusesAnnotation);
  }
  const behavior = annotations[behaviorAnnotation];
  const decodedBehavior = typeof behavior === 'string' ? behaviorFromAnnotation(behavior) : undefined;
  if (decodedBehavior !== undefined) v2Spec.behavior = decodedBehavior;
  if (metrics.length === 0) metrics = [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: defaultCpuUtilization } } }];
  v2Spec.metrics = metrics;
  const conditions = annotations[conditionsAnnotation];
  if (typeof conditions === 'string') {
    const converted = annotationList(conditions, conditionsAnnotation).map(conditionFromV1);
    v2Status.conditions = decodedAs(converted, 'io.k8s.api.autoscaling.v2.HorizontalPodAutoscalerCondition', conditionsAnnotation);
  }
  out.spec = v2Spec;
  out.status = v2Status;
  return out;
}
