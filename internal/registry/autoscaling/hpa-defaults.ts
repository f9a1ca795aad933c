// kube-apiserver 1.28's defaults of an autoscaling/v2 HorizontalPodAutoscaler
// (pkg/apis/autoscaling/v2/defaults.go): minReplicas 1, a cpu utilization target of 80% when no
// metric is given, and a given behavior filled rule by rule (scale-down's window stays unset: the
// controller's --horizontal-pod-autoscaler-downscale-stabilization decides it).
import type { KObject } from '../schema/declaration.ts';
import { defaultCpuUtilization } from './hpa-conversion.ts';
import type { Json } from './hpa-metric-conversion.ts';

const scaleUpDefaults = { stabilizationWindowSeconds: 0, selectPolicy: 'Max', policies: [{ type: 'Pods', value: 4, periodSeconds: 15 }, { type: 'Percent', value: 100, periodSeconds: 15 }] };
const scaleDownDefaults = { selectPolicy: 'Max', policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }] };

/** The defaults with every field the given rules set (copyHPAScalingRules: a set field wins, even an empty policy list). */
function rules(given: unknown, defaults: Json): Json {
  const out = structuredClone(defaults);
  if (typeof given !== 'object' || given === null) return out;
  for (const f of ['selectPolicy', 'stabilizationWindowSeconds', 'policies']) {
    const v = (given as Json)[f];
    if (v !== undefined && v !== null) out[f] = v;
  }
  return out;
}

/** SetDefaults_HorizontalPodAutoscaler (autoscaling/v2). */
export function defaultHpa(o: KObject): void {
  if (typeof o.spec !== 'object' || o.spec === null || Array.isArray(o.spec)) return;
  const spec = o.spec as Json;
  if (spec.minReplicas === undefined || spec.minReplicas === null) spec.minReplicas = 1;
  if (!Array.isArray(spec.metrics) || spec.metrics.length === 0) {
    spec.metrics = [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: defaultCpuUtilization } } }];
  }
  if (typeof spec.behavior === 'object' && spec.behavior !== null && !Array.isArray(spec.behavior)) {
    const behavior = spec.behavior as Json;
    behavior.scaleUp = rules(behavior.scaleUp, scaleUpDefaults);
    behavior.scaleDown = rules(behavior.scaleDown, scaleDownDefaults);
  }
}
