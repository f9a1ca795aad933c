import type { KObject, ResourceDeclaration } from '../schema/declaration.ts';
import { int, obj, str, time } from '../schema/field-schema.ts';
import { objectReferenceSchema } from '../schema/object-meta.ts';
import { forbidden, notSupported, required, type FieldError } from '../schema/field-errors.ts';
import { humanDuration, text } from '../schema/printers.ts';

const deprecatedFields = ['deprecatedSource', 'deprecatedFirstTimestamp', 'deprecatedLastTimestamp', 'deprecatedCount'];

function validate(o: KObject): FieldError[] {
  const errors: FieldError[] = [];
  for (const f of ['reportingController', 'reportingInstance', 'action', 'reason']) if (!text(o, f)) errors.push(required(f));
  if (!text(o, 'eventTime')) errors.push(required('eventTime'));
  const type = text(o, 'type');
  if (type !== 'Normal' && type !== 'Warning') errors.push(notSupported('type', type, ['Normal', 'Warning']));
  for (const f of deprecatedFields) if (o[f] !== undefined && o[f] !== null) errors.push(forbidden(f, 'deprecated field must not be set for new events'));
  return errors;
}

/** Events (events.<domain>/v1): the structured event API; the four reporting fields are required. */
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
  fields: {
    eventTime: time(),
    series: obj({ count: int(), lastObservedTime: time() }),
    reportingController: str(),
    reportingInstance: str(),
    action: str(),
    reason: str(),
    regarding: objectReferenceSchema,
    related: objectReferenceSchema,
    note: str(),
    type: str(),
    deprecatedSource: obj({ component: str(), host: str() }),
    deprecatedFirstTimestamp: time(),
    deprecatedLastTimestamp: time(),
    deprecatedCount: int(),
  },
  printerColumns: [
    { name: 'Last Seen', type: 'string', cell: (o, now) => humanDuration(now.getTime() - Date.parse(text(o, 'series.lastObservedTime') || text(o, 'eventTime') || (o.metadata.creationTimestamp ?? ''))) },
    { name: 'Type', type: 'string', cell: (o) => text(o, 'type') },
    { name: 'Reason', type: 'string', cell: (o) => text(o, 'reason') },
    { name: 'Object', type: 'string', cell: (o) => `${text(o, 'regarding.kind').toLowerCase()}/${text(o, 'regarding.name')}` },
    { name: 'Message', type: 'string', cell: (o) => text(o, 'note') },
  ],
  strategy: { validate },
};
