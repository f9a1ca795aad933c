// The None strategy (kube's nopConverter): only apiVersion changes.
import { stringField } from './group-version.ts';

/** `objects` at `toApiVersion`: those already there as they are, the others copied with the new apiVersion. */
export function convertByNone(objects: readonly Record<string, unknown>[], toApiVersion: string): Record<string, unknown>[] {
  return objects.map((o) => (stringField(o, 'apiVersion') === toApiVersion ? o : { ...o, apiVersion: toApiVersion }));
}
