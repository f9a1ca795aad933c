import { fairTurn } from './fair-turns.ts';
import { StorageError, type KeyValue, type Revision, type Storage } from '../../storage/storage.ts';
import { gone } from '../errors/status-error.ts';
import type { KObject, ResourceDeclaration } from '../schema/declaration.ts';
import { decodeKeyValue } from './codec.ts';
import { decodeContinue, encodeContinue } from './continue-token.ts';
import { matchesFields, parseFieldSelector } from './field-selector.ts';
import { matchesLabels, parseLabelSelector } from './label-selector.ts';
import { listPageItemsMax } from './limits.ts';
import { planList, readOptionsFor } from './resource-version.ts';

/** The query of a list, as the API takes it. */
export interface ListQuery {
  readonly labelSelector?: string;
  readonly fieldSelector?: string;
  readonly limit?: number;
  readonly continue?: string;
  readonly resourceVersion?: string;
  readonly resourceVersionMatch?: string;
  /**
   * Not an API parameter: false when the page is one of a whole list read page by page
   * (list-pages.ts), whose remainingItemCount nobody reads: counting it reads the rest of the
   * collection, for every page.
   */
  readonly countRemaining?: boolean;
}

/** A page of objects read at one revision. */
export interface ListPage {
  readonly items: KObject[];
  readonly revision: Revision;
  /** The continue token when more items remain, else ''. */
  readonly continueToken: string;
  /** Items not in this page, when known (no selectors in use). */
  readonly remainingItemCount?: number;
}

/** A predicate over objects from the label and field selectors of a query. */
export function selectorPredicate(decl: ResourceDeclaration, query: Pick<ListQuery, 'labelSelector' | 'fieldSelector'>): ((o: KObject) => boolean) & { readonly empty: boolean } {
  const labels = parseLabelSelector(query.labelSelector);
  const fields = parseFieldSelector(query.fieldSelector, decl);
  const fn = (o: KObject) => matchesLabels(labels, o.metadata.labels) && matchesFields(fields, o);
  return Object.assign(fn, { empty: labels.length === 0 && fields.length === 0 });
}

async function startOf(storage: Storage, prefix: string, query: ListQuery): Promise<{ revision?: Revision; consistency: 'linearizable' | 'local'; startKey?: string; fromToken?: true }> {
  const plan = planList(query);
  if (plan.kind !== 'continue') return readOptionsFor(storage, plan);
  // Continue-token Exact: every chunk reads at the first chunk's revision, on any replica.
  const pos = decodeContinue(plan.token, prefix);
  return { ...(await readOptionsFor(storage, { kind: 'exact', revision: pos.revision })), startKey: pos.startKey, fromToken: true };
}

/** A token revision compacted away (found when its pages are read) is Kubernetes' "continue parameter is too old" 410 Expired. */
function expiredToken(err: unknown): unknown {
  if (!(err instanceof StorageError) || err.code !== 'Compacted') return err;
  return gone('The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter.');
}

/**
 * Lists objects under `prefix`, filtered by the query's selectors, at most `limit` of them,
 * all read at one revision (following pages of storage until the page is full).
 */
export async function listObjects(storage: Storage, decl: ResourceDeclaration, prefix: string, query: ListQuery, decode: (kv: KeyValue) => Promise<KObject> | KObject = decodeKeyValue): Promise<ListPage> {
  const matches = selectorPredicate(decl, query);
  const limit = query.limit !== undefined && query.limit > 0 ? query.limit : 0;
  const start = await startOf(storage, prefix, query);
  try {
    return await readPages(storage, prefix, matches, { limit, countRemaining: query.countRemaining ?? true }, start, decode);
  } catch (err) {
    throw start.fromToken ? expiredToken(err) : err;
  }
}

/**
 * Reads storage pages from the start until `limit` items match (0: to the end). A whole collection
 * is read in pages of listPageItemsMax too, and every page after the first waits for the next
 * turn of the event loop: reading and decoding a large collection must not hold the replica's
 * one thread for seconds (the Raft heartbeats it sends and answers share it).
 */
async function readPages(
  storage: Storage,
  prefix: string,
  matches: ReturnType<typeof selectorPredicate>,
  bounds: { readonly limit: number; readonly countRemaining: boolean },
  start: Awaited<ReturnType<typeof startOf>>,
  decode: (kv: KeyValue) => Promise<KObject> | KObject,
): Promise<ListPage> {
  const { limit } = bounds;
  const items: KObject[] = [];
  let readRevision = start.revision;
  let startKey = start.startKey;
  for (;;) {
    const want = limit === 0 ? listPageItemsMax : matches.empty ? limit - items.length : Math.min(listPageItemsMax, Math.max(limit - items.length, 1) * 2);
    // Only a page whose limit is the client's, with no selector, tells the remaining count.
    const countRemaining = limit > 0 && matches.empty && bounds.countRemaining;
    // Pages after the first read at the first page's revision, which this replica already holds.
    const consistency = readRevision === undefined ? start.consistency : 'local';
    if (readRevision !== undefined) await fairTurn();
    const page = await storage.list({ prefix, consistency, ...(readRevision === undefined ? {} : { revision: readRevision }), ...(startKey ? { startKey } : {}), limit: want, countRemaining });
    readRevision = page.revision;
    for (const [i, kv] of page.items.entries()) {
      // Decoded into the served form first: selectors name the served version's fields.
      const loaded = decode(kv);
      // Most kinds decode synchronously: no microtask per item on a large list.
      const obj = loaded instanceof Promise ? await loaded : loaded;
      if (!matches(obj)) continue;
      items.push(obj);
      if (limit > 0 && items.length === limit) {
        const next = page.items[i + 1]?.key ?? page.nextKey;
        const remaining = countRemaining && page.remainingCount !== undefined ? page.remainingCount + (page.items.length - i - 1) : undefined;
        const more = next !== null && next !== undefined;
        return { items, revision: page.revision, continueToken: more ? encodeContinue({ revision: page.revision, startKey: next }) : '', ...(more && remaining !== undefined ? { remainingItemCount: remaining } : {}) };
      }
    }
    if (page.nextKey === null) return { items, revision: page.revision, continueToken: '' };
    startKey = page.nextKey;
  }
}
