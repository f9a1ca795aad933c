// The events the state machine produces when it applies a write.
import type { WatchEvent } from './storage.ts';

/** A change of one key at one revision: a watch event other than a progress notification. */
export type ChangeEvent = Exclude<WatchEvent, { readonly type: 'progress' }>;

/** The revision a change happened at. */
export function eventRevision(event: ChangeEvent): number {
  return event.kv.modRevision;
}
