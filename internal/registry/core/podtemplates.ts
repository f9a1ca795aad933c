// PodTemplates (core/v1), as kube-apiserver 1.28 serves them: pkg/registry/core/podtemplate/strategy.go
// (generation counts template changes), ValidatePodTemplate(Update) and printPodTemplate.
import type { KObject, ResourceDeclaration } from '../schema/declaration.ts';
import { formatLabels } from '../schema/label-selectors.ts';
import { field, nameColumn } from '../schema/printers.ts';
import { builtinFields, builtinRequired } from '../schema/builtin-schemas.ts';
import { stableStringify } from '../generic/stable-json.ts';
import { containerCells, defaultPodTemplate, validatePodTemplateSpec } from './pod-template.ts';

/** PodTemplates (core/v1): pod templates stored for other objects to use. */
export const podtemplates: ResourceDeclaration = {
  group: '',
  version: 'v1',
  kind: 'PodTemplate',
  plural: 'podtemplates',
  singular: 'podtemplate',
  namespaced: true,
  nameRule: 'subdomain',
  description: 'PodTemplate describes a template for creating copies of a predefined pod.',
  fields: builtinFields('io.k8s.api.core.v1.PodTemplate'),
  required: builtinRequired('io.k8s.api.core.v1.PodTemplate'),
  printerColumns: [
    nameColumn,
    { name: 'Containers', type: 'string', description: 'Names of each container in the template.', cell: (o) => containerCells(o, 'template').names },
    { name: 'Images', type: 'string', description: 'Images referenced by each container in the template.', cell: (o) => containerCells(o, 'template').images },
    { name: 'Pod Labels', type: 'string', description: 'The labels for the pod template.', cell: (o) => formatLabels(field(o, 'template.metadata.labels')) },
  ],
  strategy: {
    prepareForCreate(o: KObject) {
      o.metadata.generation = 1;
    },
    prepareForUpdate(o: KObject, old: KObject) {
      const changed = stableStringify(o.template ?? null) !== stableStringify(old.template ?? null);
      o.metadata.generation = (old.metadata.generation ?? 1) + (changed ? 1 : 0);
    },
    applyDefaults: (o) => defaultPodTemplate(o, 'template'),
    validate: (o) => validatePodTemplateSpec(o, 'template'),
  },
};
