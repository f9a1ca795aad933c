// The metric sources and statuses of a HorizontalPodAutoscaler between autoscaling/v2 and the
// autoscaling/v1 form kube-apiserver 1.28 writes into the v1 round-trip annotations (the
// per-source functions of pkg/apis/autoscaling/v1/conversion.go). Keys are built in the order Go
// marshals the v1 structs, so the annotation text reads as kube-apiserver's. Go's non-pointer
// quantities (a v1 `targetValue`, a v1 `currentAverageValue`) are "0" when the v2 side has none,
// exactly as upstream: those few values do not round trip, as they do not upstream either.
import { badRequest } from '../errors/status-error.ts';

/** A JSON object. */
export type Json = Record<string, unknown>;

/** The zero resource.Quantity as Go marshals it. */
const zeroQuantity = '0';

/** `v[key]` unless absent or null. */
export function present(v: Json, key: string): unknown {
  const value = v[key];
  return value === null ? undefined : value;
}

/** `v[key]` as an object (absent or null: undefined); anything else is the 400 a Go decoder answers. */
export function objectAt(v: Json, key: string, where: string): Json | undefined {
  const value = present(v, key);
  if (value === undefined) return undefined;
  if (typeof value !== 'object' || Array.isArray(value)) throw badRequest(`${where}: json: cannot unmarshal ${Array.isArray(value) ? 'array' : typeof value} into Go struct field ${key} of type object`);
  return value as Json;
}

/** A new object of the entries whose value is defined (Go's omitempty for pointers). */
function defined(entries: ReadonlyArray<readonly [string, unknown]>): Json {
  const out: Json = {};
  for (const [k, v] of entries) if (v !== undefined) out[k] = v;
  return out;
}

function reference(r: Json | undefined): Json {
  return defined([['kind', r?.kind ?? ''], ['name', r?.name ?? ''], ['apiVersion', present(r ?? {}, 'apiVersion')]]);
}

function identifierOf(src: Json, where: string): { name: unknown; selector: unknown } {
  const metric = objectAt(src, 'metric', where) ?? {};
  return { name: metric.name ?? '', selector: present(metric, 'selector') };
}

function identifier(name: unknown, selector: unknown): Json {
  return defined([['name', name ?? ''], ['selector', selector]]);
}

/** A v2 MetricSpec in its autoscaling/v1 form. */
export function metricSpecToV1(m: Json, where: string): Json {
  const out: Json = { type: m.type ?? '' };
  const object = objectAt(m, 'object', where);
  if (object) {
    const id = identifierOf(object, where);
    const target = objectAt(object, 'target', where) ?? {};
    out.object = defined([['target', reference(objectAt(object, 'describedObject', where))], ['metricName', id.name], ['targetValue', present(target, 'value') ?? zeroQuantity], ['selector', id.selector], ['averageValue', present(target, 'averageValue')]]);
  }
  const pods = objectAt(m, 'pods', where);
  if (pods) {
    const id = identifierOf(pods, where);
    const target = objectAt(pods, 'target', where) ?? {};
    out.pods = defined([['metricName', id.name], ['targetAverageValue', present(target, 'averageValue') ?? zeroQuantity], ['selector', id.selector]]);
  }
  for (const key of ['resource', 'containerResource'] as const) {
    const r = objectAt(m, key, where);
    if (!r) continue;
    const target = objectAt(r, 'target', where) ?? {};
    const container: ReadonlyArray<readonly [string, unknown]> = key === 'containerResource' ? [['container', r.container ?? '']] : [];
    out[key] = defined([['name', r.name ?? ''], ['targetAverageUtilization', present(target, 'averageUtilization')], ['targetAverageValue', present(target, 'averageValue')], ...container]);
  }
  const external = objectAt(m, 'external', where);
  if (external) {
    const id = identifierOf(external, where);
    const target = objectAt(external, 'target', where) ?? {};
    out.external = defined([['metricName', id.name], ['metricSelector', id.selector], ['targetValue', present(target, 'value')], ['targetAverageValue', present(target, 'averageValue')]]);
  }
  return out;
}

/** An autoscaling/v1 MetricSpec (from the annotation) in its v2 form. */
export function metricSpecFromV1(m: Json, where: string): Json {
  const out: Json = { type: m.type ?? '' };
  const object = objectAt(m, 'object', where);
  if (object) {
    const average = present(object, 'averageValue');
    const target = defined([['type', average === undefined ? 'Value' : 'AverageValue'], ['value', present(object, 'targetValue') ?? zeroQuantity], ['averageValue', average]]);
    out.object = { describedObject: reference(objectAt(object, 'target', where)), target, metric: identifier(object.metricName, present(object, 'selector')) };
  }
  const pods = objectAt(m, 'pods', where);
  if (pods) out.pods = { metric: identifier(pods.metricName, present(pods, 'selector')), target: { type: 'AverageValue', averageValue: present(pods, 'targetAverageValue') ?? zeroQuantity } };
  for (const key of ['resource', 'containerResource'] as const) {
    const r = objectAt(m, key, where);
    if (!r) continue;
    const utilization = present(r, 'targetAverageUtilization');
    const target = defined([['type', utilization === undefined ? 'AverageValue' : 'Utilization'], ['averageUtilization', utilization], ['averageValue', present(r, 'targetAverageValue')]]);
    out[key] = key === 'containerResource' ? { name: r.name ?? '', target, container: r.container ?? '' } : { name: r.name ?? '', target };
  }
  const external = objectAt(m, 'external', where);
  if (external) {
    const value = present(external, 'targetValue');
    const target = defined([['type', value === undefined ? 'AverageValue' : 'Value'], ['value', value], ['averageValue', present(external, 'targetAverageValue')]]);
    out.external = { metric: identifier(external.metricName, present(external, 'metricSelector')), target };
  }
  return out;
}

/** A v2 MetricStatus in its autoscaling/v1 form. */
export function metricStatusToV1(m: Json, where: string): Json {
  const out: Json = { type: m.type ?? '' };
  const object = objectAt(m, 'object', where);
  if (object) {
    const id = identifierOf(object, where);
    const current = objectAt(object, 'current', where) ?? {};
    out.object = defined([['target', reference(objectAt(object, 'describedObject', where))], ['metricName', id.name], ['currentValue', present(current, 'value') ?? zeroQuantity], ['selector', id.selector], ['averageValue', present(current, 'averageValue')]]);
  }
  const pods = objectAt(m, 'pods', where);
  if (pods) {
    const id = identifierOf(pods, where);
    const current = objectAt(pods, 'current', where) ?? {};
    out.pods = defined([['metricName', id.name], ['currentAverageValue', present(current, 'averageValue') ?? zeroQuantity], ['selector', id.selector]]);
  }
  for (const key of ['resource', 'containerResource'] as const) {
    const r = objectAt(m, key, where);
    if (!r) continue;
    const current = objectAt(r, 'current', where) ?? {};
    const container: ReadonlyArray<readonly [string, unknown]> = key === 'containerResource' ? [['container', r.container ?? '']] : [];
    out[key] = defined([['name', r.name ?? ''], ['currentAverageUtilization', present(current, 'averageUtilization')], ['currentAverageValue', present(current, 'averageValue') ?? zeroQuantity], ...container]);
  }
  const external = objectAt(m, 'external', where);
  if (external) {
    const id = identifierOf(external, where);
    const current = objectAt(external, 'current', where) ?? {};
    out.external = defined([['metricName', id.name], ['metricSelector', id.selector], ['currentValue', present(current, 'value') ?? zeroQuantity], ['currentAverageValue', present(current, 'averageValue')]]);
  }
  return out;
}

/** An autoscaling/v1 MetricStatus (from the annotation) in its v2 form. */
export function metricStatusFromV1(m: Json, where: string): Json {
  const out: Json = { type: m.type ?? '' };
  const object = objectAt(m, 'object', where);
  if (object) {
    const current = defined([['value', present(object, 'currentValue') ?? zeroQuantity], ['averageValue', present(object, 'averageValue')]]);
    out.object = { metric: identifier(object.metricName, present(object, 'selector')), current, describedObject: reference(objectAt(object, 'target', where)) };
  }
  const pods = objectAt(m, 'pods', where);
  if (pods) out.pods = { metric: identifier(pods.metricName, present(pods, 'selector')), current: { averageValue: present(pods, 'currentAverageValue') ?? zeroQuantity } };
  for (const key of ['resource', 'containerResource'] as const) {
    const r = objectAt(m, key, where);
    if (!r) continue;
    const current = defined([['averageValue', present(r, 'currentAverageValue') ?? zeroQuantity], ['averageUtilization', present(r, 'currentAverageUtilization')]]);
    out[key] = key === 'containerResource' ? { name: r.name ?? '', current, container: r.container ?? '' } : { name: r.name ?? '', current };
  }
  const external = objectAt(m, 'external', where);
  if (external) {
    const current = defined([['value', present(external, 'currentValue') ?? zeroQuantity], ['averageValue', present(external, 'currentAverageValue')]]);
    out.external = { metric: identifier(external.metricName, present(external, 'metricSelector')), current };
  }
  return out;
}
