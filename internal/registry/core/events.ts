import type { KObject, ResourceDeclaration } from '../schema/declaration.ts';
import { int, obj, str, time } from '../schema/field-schema.ts';
import { objectReferenceSchema } from '../schema/object-meta.ts';
import { required, type FieldError } from '../schema/field-errors.ts';
import { humanDuration, text } from '../schema/printers.ts';

function lastSeen(o: KObject, now: Date): string {
  const t = text(o, 'lastTimestamp') || text(o, 'eventTime') || (o.metadata.creationTimestamp ?? '');
  return t === '' ? '<unknown>' : humanDuration(now.getTime() - Date.parse(t));
}

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
  fields: {
    involvedObject: objectReferenceSchema,
    reason: str(),
    message: str(),
    source: obj({ component: str(), host: str() }),
    firstTimestamp: time(),
    lastTimestamp: time(),
    count: int(),
    type: str(),
    eventTime: time(),
    series: obj({ count: int(), lastObservedTime: time() }),
    action: str(),
    related: objectReferenceSchema,
    reportingComponent: str(),
    reportingInstance: str(),
  },
  printerColumns: [
    { name: 'Last Seen', type: 'string', cell: lastSeen },
    { name: 'Type', type: 'string', cell: (o) => text(o, 'type') },
    { name: 'Reason', type: 'string', cell: (o) => text(o, 'reason') },
    { name: 'Object', type: 'string', cell: (o) => `${text(o, 'involvedObject.kind').toLowerCase()}/${text(o, 'involvedObject.name')}` },
    { name: 'Message', type: 'string', cell: (o) => text(o, 'message') },
  ],
  fieldSelectors: {
    'involvedObject.kind': (o) => text(o, 'involvedObject.kind'),
    'involvedObject.name': (o) => text(o, 'involvedObject.name'),
    'involvedObject.namespace': (o) => text(o, 'involvedObject.namespace'),
    'involvedObject.uid': (o) => text(o, 'involvedObject.uid'),
    reason: (o) => text(o, 'reason'),
    type: (o) => text(o, 'type'),
  },
  strategy: { validate: validateEvent },
};

