// ReplicationControllers (core/v1), as kube-apiserver 1.28 serves them:
// SetDefaults_ReplicationController (selector and labels from the template), pkg/registry/core/
// replicationcontroller/strategy.go, ValidateReplicationController(Spec) and printReplicationController.
import type { KObject, ResourceDeclaration } from '../schema/declaration.ts';
import { forbidden, invalidValue, notSupported, required, type FieldError } from '../schema/field-errors.ts';
import { objectMetaFieldLabels } from '../schema/field-labels.ts';
import { formatLabels, labelMapMatches } from '../schema/label-selectors.ts';
import { ageColumn, field, nameColumn, num } from '../schema/printers.ts';
import { builtinFields, builtinRequired } from '../schema/builtin-schemas.ts';
import { containerCells, defaultPodTemplate, validatePodTemplateSpec } from './pod-template.ts';

function selectorOf(o: KObject): Record<string, string> {
  const selector = field(o, 'spec.selector');
  return typeof selector === 'object' && selector !== null ? (selector as Record<string, string>) : {};
}

function defaultReplicationController(o: KObject): void {
  const spec = (o.spec ??= {}) as Record<string, unknown>;
  const labels = field(o, 'spec.template.metadata.labels') as Record<string, string> | undefined;
  if (labels !== undefined && labels !== null) {
    if (Object.keys(selectorOf(o)).length === 0) spec.selector = { ...labels };
    if (Object.keys(o.metadata.labels ?? {}).length === 0) o.metadata.labels = { ...labels };
  }
  spec.replicas ??= 1;
  defaultPodTemplate(o, 'spec.template');
}

/** ValidatePodTemplateSpecForRC: a template whose labels the selector matches, restarting Always. */
function validateTemplateForRC(o: KObject): FieldError[] {
  if (field(o, 'spec.template') === undefined || field(o, 'spec.template') === null) return [required('spec.template')];
  const selector = selectorOf(o);
  const labels = field(o, 'spec.template.metadata.labels') as Record<string, string> | undefined;
  const errors: FieldError[] = [];
  if (Object.keys(selector).length > 0 && !labelMapMatches(selector, labels)) errors.push(invalidValue('spec.template.metadata.labels', labels ?? null, '`selector` does not match template `labels`'));
  errors.push(...validatePodTemplateSpec(o, 'spec.template'));
  const restartPolicy = field(o, 'spec.template.spec.restartPolicy');
  if (restartPolicy !== 'Always') errors.push(notSupported('spec.template.spec.restartPolicy', restartPolicy ?? '', ['Always']));
  if (field(o, 'spec.template.spec.activeDeadlineSeconds') !== undefined) {
    errors.push(forbidden('spec.template.spec.activeDeadlineSeconds', 'activeDeadlineSeconds in ReplicationController is not Supported'));
  }
  return errors;
}

function validateReplicationController(o: KObject): FieldError[] {
  const errors: FieldError[] = [];
  for (const key of ['minReadySeconds', 'replicas']) {
    const v = field(o, `spec.${key}`);
    if (typeof v === 'number' && v < 0) errors.push(invalidValue(`spec.${key}`, v, 'must be greater than or equal to 0'));
  }
  if (Object.keys(selectorOf(o)).length === 0) errors.push(required('spec.selector'));
  errors.push(...validateTemplateForRC(o));
  for (const key of ['replicas', 'fullyLabeledReplicas', 'readyReplicas', 'availableReplicas', 'observedGeneration']) {
    const v = field(o, `status.${key}`);
    if (typeof v === 'number' && v < 0) errors.push(invalidValue(`status.${key}`, v, 'must be greater than or equal to 0'));
  }
  return errors;
}

/** ReplicationControllers (core/v1): the original keep-N-pods-running controller. */
export const replicationcontrollers: ResourceDeclaration = {
  group: '',
  version: 'v1',
  kind: 'ReplicationController',
  plural: 'replicationcontrollers',
  singular: 'replicationcontroller',
  shortNames: ['rc'],
  categories: ['all'],
  namespaced: true,
  nameRule: 'subdomain',
  description: 'ReplicationController represents the configuration of a replication controller.',
  fields: builtinFields('io.k8s.api.core.v1.ReplicationController'),
  required: builtinRequired('io.k8s.api.core.v1.ReplicationController'),
  subresources: { status: true, scale: { selectorFrom: 'spec.selector' } },
  tracksGeneration: true,
  // pkg/apis/core/v1/conversion.go: metadata.name, metadata.namespace and status.replicas.
  fieldSelectors: { ...objectMetaFieldLabels, 'status.replicas': (o) => String(num(o, 'status.replicas')) },
  printerColumns: [
    nameColumn,
    { name: 'Desired', type: 'integer', description: 'Replicas is the number of desired replicas.', cell: (o) => num(o, 'spec.replicas') },
    { name: 'Current', type: 'integer', description: 'Replicas is the most recently observed number of replicas.', cell: (o) => num(o, 'status.replicas') },
    { name: 'Ready', type: 'integer', description: 'The number of ready replicas for this replication controller.', cell: (o) => num(o, 'status.readyReplicas') },
    ageColumn,
    { name: 'Containers', type: 'string', priority: 1, description: 'Names of each container in the template.', cell: (o) => containerCells(o, 'spec.template').names },
    { name: 'Images', type: 'string', priority: 1, description: 'Images referenced by each container in the template.', cell: (o) => containerCells(o, 'spec.template').images },
    { name: 'Selector', type: 'string', priority: 1, description: 'Selector is a label query over pods that should match the Replicas count.', cell: (o) => formatLabels(field(o, 'spec.selector')) },
  ],
  strategy: {
    allowCreateOnUpdate: false,
    prepareForCreate(o) {
      o.status = { replicas: 0 };
    },
    applyDefaults: defaultReplicationController,
    validate: validateReplicationController,
  },
};
