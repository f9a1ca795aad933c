import type { KObject, ResourceDeclaration } from '../schema/declaration.ts';
import { immutable, invalidValue, required, type FieldError } from '../schema/field-errors.ts';
import { stableStringify } from '../generic/stable-json.ts';
import { text } from '../schema/printers.ts';
import { objectMetaFieldLabels, textLabel } from '../schema/field-labels.ts';
import { builtinFields } from '../schema/builtin-schemas.ts';
import { events } from '../core/events.ts';
import { eventColumns } from '../core/event-columns.ts';
import { eventFromCore, eventToCore } from './event-conversion.ts';

// Each row's cells read the same object: it is converted once, not once per column.
const coreForms = new WeakMap<KObject, KObject>();

function coreForm(event: KObject): KObject {
  let core = coreForms.get(event);
  if (core === undefined) coreForms.set(event, (core = eventToCore(event)));
  return core;
}

function validate(o: KObject): FieldError[] {
  const errors: FieldError[] = [];
  for (const f of ['reportingController', 'reportingInstance', 'action', 'reason']) if (!text(o, f)) errors.push(required(f));
  if (!text(o, 'eventTime')) errors.push(required('eventTime'));
  const type = text(o, 'type');
  // kube-apiserver 1.28 (ValidateEventCreate) reports an Invalid with an empty value and the type in the message.
  if (type !== 'Normal' && type !== 'Warning') errors.push(invalidValue('type', '', `has invalid value: ${type}`));
  // kube-apiserver tests the values, named as the internal type names them: a Go client sends an
  // empty deprecatedSource (and zero count and times) with every Event, which is "unset".
  if (goValue(o.deprecatedFirstTimestamp) !== '') errors.push(invalidValue('firstTimestamp', '', 'needs to be unset'));
  if (goValue(o.deprecatedLastTimestamp) !== '') errors.push(invalidValue('lastTimestamp', '', 'needs to be unset'));
  if (goValue(o.deprecatedCount) !== '') errors.push(invalidValue('count', '', 'needs to be unset'));
  const source = o.deprecatedSource as Record<string, unknown> | undefined | null;
  if (goValue(source?.component) !== '' || goValue(source?.host) !== '') errors.push(invalidValue('source', '', 'needs to be unset'));
  return errors;
}

// kube-apiserver 1.28's ValidateEventUpdate for an events.k8s.io/v1 request: none of these may
// change (named as the internal type names them); an Event's other rules are for its creation
// only, so an Event written through core/v1 (deprecated fields set, no eventTime) can be updated.
const immutableFields: ReadonlyArray<readonly [field: string, named: string]> = [
  ['regarding', 'involvedObject'],
  ['reason', 'reason'],
  ['note', 'message'],
  ['deprecatedSource', 'source'],
  ['deprecatedFirstTimestamp', 'firstTimestamp'],
  ['deprecatedLastTimestamp', 'lastTimestamp'],
  ['deprecatedCount', 'count'],
  ['type', 'type'],
  ['eventTime', 'eventTime'],
  ['action', 'action'],
  ['related', 'related'],
  ['reportingController', 'reportingController'],
  ['reportingInstance', 'reportingInstance'],
];

/** A field's value as Go compares it: absent, null, "", 0 and {} are all the zero value. */
function goValue(v: unknown): string {
  const zero = v === undefined || v === null || v === '' || v === 0 || (typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length === 0);
  return zero ? '' : stableStringify(v);
}

function validateUpdate(o: KObject, old: KObject): FieldError[] {
  return immutableFields.filter(([f]) => goValue(o[f]) !== goValue(old[f])).map(([f, named]) => immutable(named, o[f] ?? null));
}

/** Events (events.<domain>/v1): the structured event API over the core/v1 Events; the four reporting fields are required. */
export const eventsV1: ResourceDeclaration = {
  group: 'events',
  groupQualified: true,
  version: 'v1',
  kind: 'Event',
  plural: 'events',
  singular: 'event',
  shortNames: ['ev'],
  namespaced: true,
  nameRule: 'subdomain',
  description: 'Event is a report of an event somewhere in the cluster.',
  fields: builtinFields('io.k8s.api.events.v1.Event'),
  // kube-apiserver serves both versions from one store with one table: the core/v1 Event's.
  printerColumns: eventColumns.map((column) => ({ ...column, cell: (o: KObject, now: Date) => column.cell(coreForm(o), now) })),
  // kube-apiserver 1.28: AddFieldLabelConversionsForEvent of pkg/apis/events/v1/conversion.go maps
  // these names onto the core/v1 field set (pkg/registry/core/event/strategy.go); read here from the
  // events.k8s.io object: regarding is involvedObject, deprecatedSource is source.
  fieldSelectors: {
    ...objectMetaFieldLabels,
    'regarding.kind': textLabel('regarding.kind'),
    'regarding.namespace': textLabel('regarding.namespace'),
    'regarding.name': textLabel('regarding.name'),
    'regarding.uid': textLabel('regarding.uid'),
    'regarding.apiVersion': textLabel('regarding.apiVersion'),
    'regarding.resourceVersion': textLabel('regarding.resourceVersion'),
    'regarding.fieldPath': textLabel('regarding.fieldPath'),
    reason: textLabel('reason'),
    reportingController: textLabel('reportingController'),
    source: (o) => text(o, 'deprecatedSource.component') || text(o, 'reportingController'),
    type: textLabel('type'),
  },
  strategy: { validateCreate: validate, validateUpdate },
  // One Event store: kept in the core/v1 collection, as kube-apiserver keeps them.
  storedAs: { decl: events, toStored: eventToCore, fromStored: eventFromCore },
};
