// kube-apiserver 1.28's table of HorizontalPodAutoscalers (printHorizontalPodAutoscaler and
// formatHPAMetrics of pkg/printers/internalversion), over the stored (v2) form.
import type { KObject, PrinterColumn } from '../schema/declaration.ts';
import { ageColumn, nameColumn, text } from '../schema/printers.ts';
import type { Json } from './hpa-metric-conversion.ts';

/** How many metrics the TARGETS column lists before "+ N more...". */
const shownMetricsMax = 2;

function obj(v: unknown): Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : {};
}

function quantity(v: unknown): string | undefined {
  return v === undefined || v === null ? undefined : String(v);
}

function percent(v: unknown): string | undefined {
  return typeof v === 'number' ? `${v}%` : undefined;
}

/** One metric as the TARGETS column shows it: current/target. */
function formatMetric(spec: Json, status: Json): string {
  const unknown = '<unknown>';
  const source = (s: Json, key: string): Json => obj(s[key]);
  switch (spec.type) {
    case 'External':
    case 'Object': {
      const key = spec.type === 'External' ? 'external' : 'object';
      const target = source(source(spec, key), 'target');
      const current = source(source(status, key), 'current');
      if (target.averageValue !== undefined && target.averageValue !== null) return `${quantity(current.averageValue) ?? unknown}/${String(target.averageValue)} (avg)`;
      return `${quantity(current.value) ?? unknown}/${quantity(target.value) ?? ''}`;
    }
    case 'Pods':
      return `${quantity(source(source(status, 'pods'), 'current').averageValue) ?? unknown}/${quantity(source(source(spec, 'pods'), 'target').averageValue) ?? ''}`;
    case 'Resource':
    case 'ContainerResource': {
      const key = spec.type === 'Resource' ? 'resource' : 'containerResource';
      const target = source(source(spec, key), 'target');
      const current = source(source(status, key), 'current');
      if (target.averageValue !== undefined && target.averageValue !== null) return `${quantity(current.averageValue) ?? unknown}/${String(target.averageValue)}`;
      return `${percent(current.averageUtilization) ?? unknown}/${percent(target.averageUtilization) ?? '<auto>'}`;
    }
    default:
      return '<unknown type>';
  }
}

/** formatHPAMetrics: each spec metric with the status at the same index. */
export function formatHpaMetrics(o: KObject): string {
  const specs = (Array.isArray(obj(o.spec).metrics) ? obj(o.spec).metrics : []) as unknown[];
  const statuses = (Array.isArray(obj(o.status).currentMetrics) ? obj(o.status).currentMetrics : []) as unknown[];
  if (specs.length === 0) return '<none>';
  const list = specs.slice(0, shownMetricsMax).map((s, i) => formatMetric(obj(s), obj(statuses[i])));
  const more = specs.length - list.length;
  return more > 0 ? `${list.join(', ')} + ${more} more...` : list.join(', ');
}

/** The HPA columns, given how to get the v2 form of a served object. */
export function hpaColumns(toV2: (o: KObject) => KObject): readonly PrinterColumn[] {
  return [
    nameColumn,
    { name: 'Reference', type: 'string', description: 'Reference is the target of the autoscaler.', cell: (o) => `${text(o, 'spec.scaleTargetRef.kind')}/${text(o, 'spec.scaleTargetRef.name')}` },
    { name: 'Targets', type: 'string', description: 'Targets of the autoscaler.', cell: (o) => formatHpaMetrics(toV2(o)) },
    { name: 'MinPods', type: 'string', description: 'Minimum number of pods the autoscaler can set.', cell: (o) => (typeof obj(o.spec).minReplicas === 'number' ? String(obj(o.spec).minReplicas) : '<unset>') },
    { name: 'MaxPods', type: 'integer', description: 'Maximum number of pods the autoscaler can set.', cell: (o) => (typeof obj(o.spec).maxReplicas === 'number' ? (obj(o.spec).maxReplicas as number) : 0) },
    { name: 'Replicas', type: 'integer', description: 'Current number of replicas of the target.', cell: (o) => (typeof obj(o.status).currentReplicas === 'number' ? (obj(o.status).currentReplicas as number) : 0) },
    ageColumn,
  ];
}
