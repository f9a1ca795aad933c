// The table of Events, as kube-apiserver 1.28 prints them (printEvent of
// pkg/printers/internalversion): one table for both API versions, from the core/v1 form, since
// both are served from one store. An Event of the structured API has no first or last timestamp,
// only an eventTime and maybe a series; one from core/v1 has the timestamps, so "Last Seen" takes
// the first of them that is set.
import type { KObject, PrinterColumn } from '../schema/declaration.ts';
import { humanDuration, num, text } from '../schema/printers.ts';

/** How long ago `timestamp` was, or `<unknown>` when it is not set (Go's zero time). */
function since(timestamp: string, now: Date): string {
  return timestamp === '' ? '<unknown>' : humanDuration(now.getTime() - Date.parse(timestamp));
}

function firstSeen(o: KObject, now: Date): string {
  return since(text(o, 'firstTimestamp') || text(o, 'eventTime'), now);
}

function lastSeen(o: KObject, now: Date): string {
  if (typeof o.series === 'object' && o.series !== null) return since(text(o, 'series.lastObservedTime'), now);
  return text(o, 'lastTimestamp') === '' ? firstSeen(o, now) : since(text(o, 'lastTimestamp'), now);
}

/** A series' count, else the event's, and 1 for a singleton of the structured API (which has none). */
function count(o: KObject): number {
  if (typeof o.series === 'object' && o.series !== null) return num(o, 'series.count');
  return num(o, 'count') || 1;
}

function target(o: KObject): string {
  const kind = text(o, 'involvedObject.kind').toLowerCase();
  const name = text(o, 'involvedObject.name');
  return name === '' ? kind : `${kind}/${name}`;
}

/** Who reported it, as `component, host`: each from source, else from the reporting fields. */
function reportedBy(o: KObject): string {
  const component = text(o, 'source.component') || text(o, 'reportingComponent');
  const host = text(o, 'source.host') || text(o, 'reportingInstance');
  return host === '' ? component : `${component}, ${host}`;
}

/** The columns of a core/v1 Event's table row; `-o wide` adds those of priority 1. */
export const eventColumns: readonly PrinterColumn[] = [
  { name: 'Last Seen', type: 'string', description: 'When the event was last observed.', cell: lastSeen },
  { name: 'Type', type: 'string', description: 'Normal or Warning.', cell: (o) => text(o, 'type') },
  { name: 'Reason', type: 'string', description: 'Why the event happened, in a word.', cell: (o) => text(o, 'reason') },
  { name: 'Object', type: 'string', description: 'The object the event is about.', cell: target },
  { name: 'Subobject', type: 'string', priority: 1, description: 'The part of the object the event is about.', cell: (o) => text(o, 'involvedObject.fieldPath') },
  { name: 'Source', type: 'string', priority: 1, description: 'The component that reported the event.', cell: reportedBy },
  { name: 'Message', type: 'string', description: 'What happened, for people.', cell: (o) => text(o, 'message').trim() },
  { name: 'First Seen', type: 'string', priority: 1, description: 'When the event was first observed.', cell: firstSeen },
  { name: 'Count', type: 'integer', priority: 1, description: 'How many times the event was observed.', cell: count },
  { name: 'Name', type: 'string', priority: 1, description: 'The name of the Event object.', cell: (o) => o.metadata.name ?? '' },
];
