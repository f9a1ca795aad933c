import type { KObject, ResourceDeclaration } from '../schema/declaration.ts';
import { required, type FieldError } from '../schema/field-errors.ts';
import { text } from '../schema/printers.ts';
import { objectMetaFieldLabels, textLabel } from '../schema/field-labels.ts';
import { builtinFields } from '../schema/builtin-schemas.ts';
import { eventColumns } from './event-columns.ts';

function validateEvent(o: KObject): FieldError[] {
  return text(o, 'involvedObject.kind') === '' && text(o, 'involvedObject.name') === '' ? [required('involvedObject')] : [];
}

/** Events (core/v1): reports of what happened to an object. */
export const events: ResourceDeclaration = {
  group: '',
  version: 'v1',
  kind: 'Event',
  plural: 'events',
  singular: 'event',
  shortNames: ['ev'],
  namespaced: true,
  nameRule: 'subdomain',
  description: 'Event is a report of an event somewhere in the cluster.',
  fields: builtinFields('io.k8s.api.core.v1.Event'),
  printerColumns: eventColumns,
  // kube-apiserver 1.28: AddFieldLabelConversionsForEvent (pkg/apis/core/v1/conversion.go) and the
  // field set of pkg/registry/core/event/strategy.go.
  fieldSelectors: {
    ...objectMetaFieldLabels,
    'involvedObject.kind': textLabel('involvedObject.kind'),
    'involvedObject.namespace': textLabel('involvedObject.namespace'),
    'involvedObject.name': textLabel('involvedObject.name'),
    'involvedObject.uid': textLabel('involvedObject.uid'),
    'involvedObject.apiVersion': textLabel('involvedObject.apiVersion'),
    'involvedObject.resourceVersion': textLabel('involvedObject.resourceVersion'),
    'involvedObject.fieldPath': textLabel('involvedObject.fieldPath'),
    reason: textLabel('reason'),
    reportingComponent: textLabel('reportingComponent'),
    source: (o) => text(o, 'source.component') || text(o, 'reportingComponent'),
    type: textLabel('type'),
  },
  strategy: { validate: validateEvent },
};

