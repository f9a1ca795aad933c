// The initial events of a watch (resourceVersion unset or "0", or sendInitialEvents=true), read a
// page at a time at one revision (list-pages.ts): the first page before the stream starts (so a
// bad selector or a revision this replica cannot reach is the request's error), each later page
// only when the consumer has taken the previous one. What a watcher holds is one page, whatever the
// collection's size; a slow consumer slows the reads, it never makes them pile up.
import type { Revision } from '../../storage/storage.ts';
import { gone, StatusError } from '../errors/status-error.ts';
import type { KObject } from '../schema/declaration.ts';
import type { ListQuery } from './list.ts';
import { readListPages } from './list-pages.ts';
import { parseResourceVersion, type ReadPlan } from './resource-version.ts';
import type { GenericStore } from './store.ts';

/**
 * Objects read per page of a watch's initial events: the most one watcher holds of them at once.
 * A watcher that stalls holds its page until it is dropped, and many may stall together. Measured
 * (`make bench`'s scale curve, 100 stalled watches of 10,000 ConfigMaps of 1 KiB on a follower):
 * 3.5 MiB of peak RSS per watcher with pages of 500 (listPageItemsMax), 1.7 MiB with pages of 100;
 * one watch's initial events took 629 ms against 1,396 (5.3 s against 4.8 at 100,000).
 */
export const initialEventsPageItemsDefault = 100;

/** The objects of a watch's initial events and the revision they were all read at. */
export interface InitialObjects {
  /** The list's revision: the watch follows the changes after it. */
  readonly revision: Revision;
  /** The objects in key order, a page at a time: asking for the next page reads it. Iterated once. */
  readonly pages: AsyncIterable<readonly KObject[]>;
}

/** The list options of the initial objects, per the watch's read plan (as a list would serve them). */
function listVersion(read: ReadPlan): Pick<ListQuery, 'resourceVersion' | 'resourceVersionMatch'> {
  if (read.kind === 'most-recent') return {};
  if (read.kind === 'any') return { resourceVersion: '0' };
  return { resourceVersion: String(read.revision), resourceVersionMatch: 'NotOlderThan' };
}

/**
 * Reads the first page now; the pages iterator reads the rest at the same revision. A revision
 * compacted away before the last page is read ends the iteration with kube's watch 410 Expired
 * (a StatusError), which the stream sends as its ERROR event.
 */
export async function readInitialObjects(
  store: GenericStore,
  namespace: string | undefined,
  query: Pick<ListQuery, 'labelSelector' | 'fieldSelector'>,
  read: ReadPlan,
  pageItems: number = initialEventsPageItemsDefault,
): Promise<InitialObjects> {
  const listed = await readListPages(store, namespace, { labelSelector: query.labelSelector, fieldSelector: query.fieldSelector, ...listVersion(read) }, pageItems);
  const revision = parseResourceVersion(listed.head.metadata.resourceVersion);
  async function* pages(): AsyncGenerator<readonly KObject[]> {
    try {
      yield* listed.pages;
    } catch (err) {
      // The list's "continue parameter is too old" is the watch's: its start revision left history.
      if (err instanceof StatusError && err.code === 410) throw gone(`too old resource version: ${revision} (${store.storage.compactedRevision()})`);
      throw err;
    }
  }
  return { revision, pages: { [Symbol.asyncIterator]: pages } };
}
