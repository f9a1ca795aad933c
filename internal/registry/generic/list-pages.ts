// A whole list (no client limit) read a page at a time at one revision, through the store's own
// list() (so a store that converts or computes its objects pages them its way) and continue tokens:
// the first page now, each later page only when the consumer asks for it. Whoever consumes the
// pages holds one of them, whatever the collection's size: a LIST written out item by item, or the
// initial events of a watch.
import { fairTurn } from './fair-turns.ts';
import type { KObject } from '../schema/declaration.ts';
import type { ListQuery } from './list.ts';
import type { GenericStore, ListObject } from './store.ts';

/** A whole list read in pages. */
export interface ListPages {
  /** The list as one answer would have it, without `items`: apiVersion, kind, metadata (no continue token). */
  readonly head: Omit<ListObject, 'items'>;
  /** The whole list when it fit in the first page (nothing more to read), else null. */
  readonly whole: ListObject | null;
  /** The items in key order, a page at a time: asking for the next page reads it. Iterated once. */
  readonly pages: AsyncIterable<readonly KObject[]>;
}

/**
 * The first page's query: the whole list's, with a limit. A limit makes a bare resourceVersion N an
 * Exact read (the list table), where the whole list reads it NotOlderThan: that is said outright.
 */
function firstPageQuery(query: Omit<ListQuery, 'limit'>, pageItems: number): ListQuery {
  const rv = query.resourceVersion ?? '';
  const notOlderThan = (query.resourceVersionMatch ?? '') === '' && rv !== '' && rv !== '0' && (query.continue ?? '') === '';
  return { ...query, limit: pageItems, countRemaining: false, ...(notOlderThan ? { resourceVersionMatch: 'NotOlderThan' } : {}) };
}

/**
 * Reads the first page of the whole list `query` asks for (its errors are the list's); the pages
 * iterator reads the rest at the same revision. A later page's error (its revision compacted away:
 * 410) ends the iteration with the store's StatusError.
 */
export async function readListPages(store: GenericStore, namespace: string | undefined, query: Omit<ListQuery, 'limit'>, pageItems: number): Promise<ListPages> {
  if (!Number.isSafeInteger(pageItems) || pageItems < 1) throw new Error(`assert: list pages of ${pageItems} items`);
  const first = await store.list(namespace, firstPageQuery(query, pageItems));
  const { items: firstItems, ...rest } = first;
  const head = { ...rest, metadata: { resourceVersion: first.metadata.resourceVersion } };
  const selectors = { labelSelector: query.labelSelector, fieldSelector: query.fieldSelector };
  // The one reference to the page under way: a page is let go once the consumer moved past it.
  let current: { items: readonly KObject[]; token: string } | null = { items: firstItems, token: first.metadata.continue ?? '' };
  async function* pages(): AsyncGenerator<readonly KObject[]> {
    if (current === null) throw new Error('assert: the pages of a list are iterated once');
    let page = current;
    current = null;
    for (;;) {
      yield page.items;
      const token = page.token;
      if (token === '') return;
      page = { items: [], token: '' };
      // Each later page in a turn of its own, shared fairly with every other LIST's pages.
      await fairTurn();
      const next = await store.list(namespace, { ...selectors, continue: token, limit: pageItems, countRemaining: false });
      page = { items: next.items, token: next.metadata.continue ?? '' };
    }
  }
  return { head, whole: first.metadata.continue === undefined ? first : null, pages: { [Symbol.asyncIterator]: pages } };
}
