// CronJobs (batch/v1), as kube-apiserver 1.28 serves them: pkg/apis/batch/v1/defaults.go,
// pkg/registry/batch/cronjob/strategy.go, pkg/apis/batch/validation/validation.go
// (ValidateCronJobCreate/Update) and the CronJob printer of pkg/printers/internalversion.
import type { KObject, ResourceDeclaration } from '../schema/declaration.ts';
import { invalidValue, notSupported, required, type FieldError } from '../schema/field-errors.ts';
import { formatLabelSelector } from '../schema/label-selectors.ts';
import { dns1123Label } from '../schema/name-validation.ts';
import { age, ageColumn, field, nameColumn } from '../schema/printers.ts';
import { builtinFields, builtinRequired } from '../schema/builtin-schemas.ts';
import { containerCells, defaultPodTemplate } from '../core/pod-template.ts';
import { isKnownTimeZone, parseSchedule } from './cron-schedule.ts';
import { nonNegative, validateJobSpec } from './job-spec.ts';

const concurrencyPolicies = ['Allow', 'Forbid', 'Replace'];
/** The cronjob controller appends an 11-character suffix to Job names, which are DNS labels. */
const cronJobNameMax = 52;
/** IANA naming: letters, '.', '-', '_' (digits and '+' tolerated for legacy names), at most 14. */
const timeZonePart = /^[A-Za-z.\-_0-9+]{1,14}$/;

function validateSchedule(o: KObject, oldSchedule: string | undefined): FieldError[] {
  const schedule = field(o, 'spec.schedule');
  if (typeof schedule !== 'string' || schedule === '') return [required('spec.schedule')];
  const errors: FieldError[] = [];
  const problem = parseSchedule(schedule);
  if (problem !== undefined) errors.push(invalidValue('spec.schedule', schedule, problem));
  const allowTZ = oldSchedule?.includes('TZ') === true;
  if (allowTZ && schedule.includes('TZ') && field(o, 'spec.timeZone') !== undefined) {
    errors.push(invalidValue('spec.schedule', schedule, 'cannot use both timeZone field and TZ or CRON_TZ in schedule'));
  } else if (!allowTZ && schedule.includes('TZ')) {
    errors.push(invalidValue('spec.schedule', schedule, 'cannot use TZ or CRON_TZ in schedule, use timeZone field instead'));
  }
  return errors;
}

function validateTimeZone(zone: unknown): FieldError[] {
  if (zone === undefined || zone === null) return [];
  const at = 'spec.timeZone';
  if (zone === '') return [invalidValue(at, zone, 'timeZone must be nil or non-empty string')];
  const text = String(zone);
  for (const part of text.split('/')) {
    if (part === '.' || part === '..' || part.startsWith('-') || !timeZonePart.test(part)) return [invalidValue(at, text, `unknown time zone ${text}`)];
  }
  if (text.toLowerCase() === 'local') return [invalidValue(at, text, 'timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones')];
  return isKnownTimeZone(text) ? [] : [invalidValue(at, text, `unknown time zone ${text}`)];
}

/** validateCronJobSpec; `old` is the stored CronJob on update. */
function validateCronJobSpec(o: KObject, old?: KObject): FieldError[] {
  const oldSchedule = old === undefined ? undefined : String(field(old, 'spec.schedule') ?? '');
  const errors = [...validateSchedule(o, oldSchedule), ...nonNegative('spec.startingDeadlineSeconds', field(o, 'spec.startingDeadlineSeconds'))];
  const zone = field(o, 'spec.timeZone');
  if (old === undefined || zone !== field(old, 'spec.timeZone')) errors.push(...validateTimeZone(zone));
  const policy = field(o, 'spec.concurrencyPolicy');
  if (policy === undefined || policy === '') errors.push(required('spec.concurrencyPolicy'));
  else if (!concurrencyPolicies.includes(policy as string)) errors.push(notSupported('spec.concurrencyPolicy', policy, concurrencyPolicies));
  // ValidateJobTemplateSpec: the Job's spec, whose selector is always generated.
  errors.push(...validateJobSpec(o, 'spec.jobTemplate.spec'));
  const selector = field(o, 'spec.jobTemplate.spec.selector');
  if (selector !== undefined && selector !== null) errors.push(invalidValue('spec.jobTemplate.spec.selector', selector, '`selector` will be auto-generated'));
  if (field(o, 'spec.jobTemplate.spec.manualSelector') === true) errors.push(notSupported('spec.jobTemplate.spec.manualSelector', true, ['nil', 'false']));
  errors.push(...nonNegative('spec.successfulJobsHistoryLimit', field(o, 'spec.successfulJobsHistoryLimit')));
  errors.push(...nonNegative('spec.failedJobsHistoryLimit', field(o, 'spec.failedJobsHistoryLimit')));
  return errors;
}

function validateCronJobCreate(o: KObject): FieldError[] {
  const errors = validateCronJobSpec(o);
  const name = o.metadata.name ?? '';
  if (name.length > cronJobNameMax) errors.push(invalidValue('metadata.name', name, `must be no more than ${cronJobNameMax} characters`));
  return errors;
}

function lastScheduleCell(o: KObject, now: Date): string {
  const last = field(o, 'status.lastScheduleTime');
  return typeof last === 'string' ? age({ metadata: { creationTimestamp: last } }, now) : '<none>';
}

function suspendCell(o: KObject): string {
  const suspend = field(o, 'spec.suspend');
  return typeof suspend === 'boolean' ? (suspend ? 'True' : 'False') : '<unset>';
}

/** CronJobs (batch/v1): Jobs made on a schedule. */
export const cronjobs: ResourceDeclaration = {
  group: 'batch',
  version: 'v1',
  kind: 'CronJob',
  plural: 'cronjobs',
  singular: 'cronjob',
  shortNames: ['cj'],
  categories: ['all'],
  namespaced: true,
  nameRule: 'subdomain',
  description: 'CronJob represents the configuration of a single cron job.',
  fields: builtinFields('io.k8s.api.batch.v1.CronJob'),
  required: builtinRequired('io.k8s.api.batch.v1.CronJob'),
  subresources: { status: true },
  tracksGeneration: true,
  printerColumns: [
    nameColumn,
    { name: 'Schedule', type: 'string', description: 'The schedule in Cron format, see https://en.wikipedia.org/wiki/Cron.', cell: (o) => String(field(o, 'spec.schedule') ?? '') },
    { name: 'Suspend', type: 'boolean', description: 'This flag tells the controller to suspend subsequent executions.', cell: suspendCell },
    { name: 'Active', type: 'integer', description: 'A list of pointers to currently running jobs.', cell: (o) => (Array.isArray(field(o, 'status.active')) ? (field(o, 'status.active') as unknown[]).length : 0) },
    { name: 'Last Schedule', type: 'string', description: 'Information when was the last time the job was successfully scheduled.', cell: lastScheduleCell },
    ageColumn,
    { name: 'Containers', type: 'string', priority: 1, description: 'Names of each container in the template.', cell: (o) => containerCells(o, 'spec.jobTemplate.spec.template').names },
    { name: 'Images', type: 'string', priority: 1, description: 'Images referenced by each container in the template.', cell: (o) => containerCells(o, 'spec.jobTemplate.spec.template').images },
    { name: 'Selector', type: 'string', priority: 1, description: 'A label query over pods that should match the pod count.', cell: (o) => formatLabelSelector(field(o, 'spec.jobTemplate.spec.selector')) },
  ],
  strategy: {
    allowCreateOnUpdate: false,
    prepareForCreate(o) {
      o.status = {};
    },
    applyDefaults(o) {
      const spec = (o.spec ??= {}) as Record<string, unknown>;
      if (spec.concurrencyPolicy === undefined || spec.concurrencyPolicy === '') spec.concurrencyPolicy = 'Allow';
      spec.suspend ??= false;
      spec.successfulJobsHistoryLimit ??= 3;
      spec.failedJobsHistoryLimit ??= 1;
      defaultPodTemplate(o, 'spec.jobTemplate.spec.template');
    },
    validateCreate: validateCronJobCreate,
    validateUpdate: validateCronJobSpec,
    warnings(o, old) {
      if (old !== undefined) return [];
      const problems = dns1123Label(o.metadata.name ?? '');
      return problems.length === 0 ? [] : [`metadata.name: this is used in Pod names and hostnames, which can result in surprising behavior; a DNS label is recommended: [${problems.join(' ')}]`];
    },
  },
};
