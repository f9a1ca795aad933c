// events.k8s.io/v1 Events are kept in the core/v1 Event collection, as kube-apiserver keeps one
// Event store served at both versions: an Event written through either API reads and watches
// through both. The field mapping is that of k8s.io/kubernetes pkg/apis/events/v1/conversion.go.
import type { KObject } from '../schema/declaration.ts';

/** events.k8s.io/v1 field -> core/v1 field, for the fields that are named differently. */
const renamed: ReadonlyArray<readonly [events: string, core: string]> = [
  ['regarding', 'involvedObject'],
  ['note', 'message'],
  ['reportingController', 'reportingComponent'],
  ['deprecatedSource', 'source'],
  ['deprecatedFirstTimestamp', 'firstTimestamp'],
  ['deprecatedLastTimestamp', 'lastTimestamp'],
  ['deprecatedCount', 'count'],
];

/** Fields both versions name alike. */
const shared = ['eventTime', 'series', 'reportingInstance', 'action', 'reason', 'related', 'type'];

function copyFields(from: KObject, mapping: ReadonlyArray<readonly [string, string]>): KObject {
  const out: KObject = { kind: 'Event', metadata: structuredClone(from.metadata) };
  for (const [source, target] of mapping) {
    const value = from[source];
    if (value !== undefined && value !== null) out[target] = structuredClone(value);
  }
  return out;
}

const toCore: ReadonlyArray<readonly [string, string]> = [...renamed, ...shared.map((f) => [f, f] as const)];
const fromCore: ReadonlyArray<readonly [string, string]> = toCore.map(([events, core]) => [core, events] as const);

/** The core/v1 form of an events.k8s.io/v1 Event. */
export function eventToCore(event: KObject): KObject {
  return { apiVersion: 'v1', ...copyFields(event, toCore) };
}

/** The events.k8s.io/v1 form of a core/v1 Event. */
export function eventFromCore(core: KObject): KObject {
  const event = copyFields(core, fromCore);
  const series = event.series as { state?: unknown } | undefined;
  if (series !== undefined && typeof series === 'object' && 'state' in series) delete series.state;
  return event;
}
