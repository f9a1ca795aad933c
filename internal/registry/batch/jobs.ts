// Jobs (batch/v1), as kube-apiserver 1.28 serves them: pkg/apis/batch/v1/defaults.go,
// pkg/registry/batch/job/strategy.go, pkg/apis/batch/validation/validation.go and the Job printer
// of pkg/printers/internalversion/printers.go.
import type { KObject, ResourceDeclaration } from '../schema/declaration.ts';
import { immutable, invalidValue, required, type FieldError } from '../schema/field-errors.ts';
import { objectMetaFieldLabels } from '../schema/field-labels.ts';
import { formatLabelSelector, labelSelectorMatches, validateLabelSelector } from '../schema/label-selectors.ts';
import { dns1123Label } from '../schema/name-validation.ts';
import { ageColumn, field, humanDuration, nameColumn, num } from '../schema/printers.ts';
import { builtinFields, builtinRequired } from '../schema/builtin-schemas.ts';
import { containerCells, defaultPodTemplate } from '../core/pod-template.ts';
import { dropDisabledJobFields, nonNegative, validateJobSpec, validateJobTemplateUpdate } from './job-spec.ts';
import { stableStringify } from '../generic/stable-json.ts';

/** The labels a generated selector puts on the pod template, legacy ones first (upstream's order). */
const jobNameLabels = ['job-name', 'batch.kubernetes.io/job-name'];
const controllerUidLabels = ['controller-uid', 'batch.kubernetes.io/controller-uid'];

function specOf(o: KObject): Record<string, unknown> {
  return (o.spec ??= {}) as Record<string, unknown>;
}

function templateLabels(o: KObject): Record<string, string> {
  const spec = specOf(o);
  const template = (spec.template ??= {}) as Record<string, unknown>;
  const metadata = (template.metadata ??= {}) as Record<string, unknown>;
  return (metadata.labels ??= {}) as Record<string, string>;
}

/**
 * generateSelector: the template gets job-name and controller-uid labels (both spellings) unless
 * the user set them, and the selector matches batch.kubernetes.io/controller-uid.
 */
function generateSelector(o: KObject): void {
  const labels = templateLabels(o);
  for (const key of jobNameLabels) labels[key] ??= o.metadata.name ?? '';
  for (const key of controllerUidLabels) labels[key] ??= o.metadata.uid ?? '';
  const spec = specOf(o);
  const selector = (spec.selector ??= {}) as Record<string, unknown>;
  const matchLabels = (selector.matchLabels ??= {}) as Record<string, string>;
  matchLabels['batch.kubernetes.io/controller-uid'] ??= o.metadata.uid ?? '';
}

/** SetDefaults_Job, with the pod template's own defaults. */
function defaultJob(o: KObject): void {
  const spec = specOf(o);
  if (spec.completions === undefined && spec.parallelism === undefined) spec.completions = 1;
  spec.parallelism ??= 1;
  spec.backoffLimit ??= spec.backoffLimitPerIndex === undefined ? 6 : 2147483647;
  const labels = field(o, 'spec.template.metadata.labels') as Record<string, string> | undefined;
  if (labels !== undefined && Object.keys(o.metadata.labels ?? {}).length === 0) o.metadata.labels = { ...labels };
  spec.completionMode ??= 'NonIndexed';
  spec.suspend ??= false;
  const rules = field(o, 'spec.podFailurePolicy.rules');
  if (Array.isArray(rules)) {
    for (const rule of rules as { onPodConditions?: { status?: string }[] }[]) for (const p of rule.onPodConditions ?? []) p.status ??= 'True';
  }
  spec.manualSelector ??= false;
  defaultPodTemplate(o, 'spec.template');
}

function hasLabel(o: KObject, key: string, expected: string): FieldError[] {
  const labels = (field(o, 'spec.template.metadata.labels') ?? {}) as Record<string, string>;
  const at = `spec.template.metadata.labels[${key}]`;
  if (!Object.hasOwn(labels, key)) return [required(at, expected)];
  return labels[key] === expected ? [] : [invalidValue(at, labels, `must be '${expected}'`)];
}

/** validateGeneratedSelector: a generated selector and template labels must be the ones generated. */
function validateGeneratedSelector(o: KObject): FieldError[] {
  const selector = field(o, 'spec.selector');
  if (field(o, 'spec.manualSelector') === true || selector === undefined || selector === null) return [];
  const uid = o.metadata.uid ?? '';
  const name = o.metadata.name ?? '';
  const errors: FieldError[] = uid === '' ? [required('metadata.uid')] : [];
  errors.push(...hasLabel(o, 'controller-uid', uid), ...hasLabel(o, 'job-name', name));
  errors.push(...hasLabel(o, 'batch.kubernetes.io/controller-uid', uid), ...hasLabel(o, 'batch.kubernetes.io/job-name', name));
  const expected = { 'controller-uid': uid, 'job-name': name, 'batch.kubernetes.io/controller-uid': uid, 'batch.kubernetes.io/job-name': name };
  if (!labelSelectorMatches(selector, expected)) errors.push(invalidValue('spec.selector', selector, '`selector` not auto-generated'));
  return errors;
}

function validateJobStatus(o: KObject): FieldError[] {
  return ['active', 'succeeded', 'failed', 'ready', 'terminating'].flatMap((k) => nonNegative(`status.${k}`, field(o, `status.${k}`)));
}

/**
 * ValidateJob: the generated selector, the spec, the selector matching the template's labels. The
 * batch.kubernetes.io/ labels are required of every Job (upstream spares Jobs stored before 1.27
 * without them; orch has none).
 */
function validateJob(o: KObject): FieldError[] {
  const errors = [...validateGeneratedSelector(o), ...validateJobSpec(o, 'spec')];
  const selector = field(o, 'spec.selector');
  if (selector === undefined || selector === null) errors.push(required('spec.selector'));
  else {
    errors.push(...validateLabelSelector(selector, 'spec.selector'));
    const labels = field(o, 'spec.template.metadata.labels') as Record<string, string> | undefined;
    if (!labelSelectorMatches(selector, labels)) errors.push(invalidValue('spec.template.metadata.labels', labels ?? null, '`selector` does not match template `labels`'));
  }
  const completions = field(o, 'spec.completions');
  if (field(o, 'spec.completionMode') === 'Indexed' && typeof completions === 'number' && completions > 0) {
    const hostname = `${o.metadata.name ?? ''}-${completions - 1}`;
    if (dns1123Label(hostname).length > 0) errors.push(invalidValue('metadata.name', o.metadata.name ?? '', `will not able to create pod with invalid DNS label: ${hostname}`));
  }
  return [...errors, ...validateJobStatus(o)];
}

/** ValidateJobSpecUpdate's own checks (ValidateJob runs on updates too, as `validate`). */
function validateJobUpdate(o: KObject, old: KObject): FieldError[] {
  const errors: FieldError[] = [];
  const same = (path: string): boolean => stableStringify(field(o, path) ?? null) === stableStringify(field(old, path) ?? null);
  const completions = field(o, 'spec.completions');
  if (!same('spec.completions')) {
    // ElasticIndexedJob (beta, on): an Indexed job may change completions together with parallelism.
    if (field(o, 'spec.completionMode') !== 'Indexed') errors.push(immutable('spec.completions', completions ?? null));
    else if (typeof completions === 'number' && completions !== field(o, 'spec.parallelism')) errors.push(invalidValue('spec.completions', completions, 'can only be modified in tandem with spec.parallelism'));
  }
  for (const path of ['spec.selector', 'spec.completionMode', 'spec.podFailurePolicy', 'spec.backoffLimitPerIndex']) {
    if (!same(path)) errors.push(immutable(path, field(o, path) ?? null));
  }
  const suspendedNeverStarted = field(old, 'spec.suspend') === true && field(old, 'status.startTime') === undefined;
  errors.push(...validateJobTemplateUpdate(o, old, suspendedNeverStarted));
  return errors;
}

function durationCell(o: KObject, now: Date): string {
  const start = field(o, 'status.startTime');
  if (typeof start !== 'string') return '';
  const end = field(o, 'status.completionTime');
  return humanDuration((typeof end === 'string' ? Date.parse(end) : now.getTime()) - Date.parse(start));
}

function completionsCell(o: KObject): string {
  const succeeded = num(o, 'status.succeeded');
  const completions = field(o, 'spec.completions');
  if (typeof completions === 'number') return `${succeeded}/${completions}`;
  const parallelism = num(o, 'spec.parallelism');
  return parallelism > 1 ? `${succeeded}/1 of ${parallelism}` : `${succeeded}/1`;
}

/** Jobs (batch/v1): pods run to completion; the selector and its labels generated from the uid. */
export const jobs: ResourceDeclaration = {
  group: 'batch',
  version: 'v1',
  kind: 'Job',
  plural: 'jobs',
  singular: 'job',
  categories: ['all'],
  namespaced: true,
  nameRule: 'subdomain',
  description: 'Job represents the configuration of a single job.',
  fields: builtinFields('io.k8s.api.batch.v1.Job'),
  required: builtinRequired('io.k8s.api.batch.v1.Job'),
  subresources: { status: true },
  tracksGeneration: true,
  // pkg/apis/batch/v1/conversion.go: metadata.name, metadata.namespace and status.successful.
  fieldSelectors: { ...objectMetaFieldLabels, 'status.successful': (o) => String(num(o, 'status.succeeded')) },
  printerColumns: [
    nameColumn,
    { name: 'Completions', type: 'string', description: 'The number of pods which reached phase Succeeded.', cell: completionsCell },
    { name: 'Duration', type: 'string', description: 'Time required to complete the job.', cell: durationCell },
    ageColumn,
    { name: 'Containers', type: 'string', priority: 1, description: 'Names of each container in the template.', cell: (o) => containerCells(o, 'spec.template').names },
    { name: 'Images', type: 'string', priority: 1, description: 'Images referenced by each container in the template.', cell: (o) => containerCells(o, 'spec.template').images },
    { name: 'Selector', type: 'string', priority: 1, description: 'A label query over pods that should match the pod count.', cell: (o) => formatLabelSelector(field(o, 'spec.selector')) },
  ],
  strategy: {
    allowCreateOnUpdate: false,
    prepareForCreate(o) {
      if (field(o, 'spec.manualSelector') !== true) generateSelector(o);
      o.status = {};
      dropDisabledJobFields(specOf(o));
    },
    prepareForUpdate(o, old) {
      dropDisabledJobFields(specOf(o), (old.spec ?? {}) as Record<string, unknown>);
    },
    applyDefaults: defaultJob,
    validate: validateJob,
    validateUpdate: validateJobUpdate,
    warnings(o, old) {
      if (old !== undefined) return [];
      const problems = dns1123Label(o.metadata.name ?? '');
      return problems.length === 0 ? [] : [`metadata.name: this is used in Pod names and hostnames, which can result in surprising behavior; a DNS label is recommended: [${problems.join(' ')}]`];
    },
  },
};
