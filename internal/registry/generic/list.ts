import type { Revision, Storage } from '../../storage/storage.ts';
import type { KObject, ResourceDeclaration } from '../schema/declaration.ts';
import { badRequest } from '../errors/status-error.ts';
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
  const fn = (o: KObject) => matchesLabels(labels, o.metadata.labels) && matchesFields(fields, decl, o);
  return Object.assign(fn, { empty: labels.length === 0 && fields.length === 0 });
}

async function startOf(storage: Storage, prefix: string, query: ListQuery): Promise<{ revision?: Revision; consistency: 'linearizable' | 'local'; startKey?: string }> {
  if (query.continue) {
    const rv = query.resourceVersion ?? '';
    if (rv !== '' && rv !== '0') throw badRequest('specifying resource version is not allowed when using continue');
    const pos = decodeContinue(query.continue, prefix);
    return { revision: pos.revision, consistency: 'local', startKey: pos.startKey };
  }
  return readOptionsFor(storage, planList(query));
}

/**
 * Lists objects under `prefix`, filtered by the query's selectors, at most `limit` of them,
 * all read at one revision (following pages of storage until the page is full).
 */
export async function listObjects(storage: Storage, decl: ResourceDeclaration, prefix: string, query: ListQuery): Promise<ListPage> {
  const matches = selectorPredicate(decl, query);
  const limit = query.limit !== undefined && query.limit > 0 ? query.limit : 0;
  const start = await startOf(storage, prefix, query);
  const items: KObject[] = [];
  let readRevision = start.revision;
  let startKey = start.startKey;
  for (;;) {
    const want = limit === 0 ? 0 : matches.empty ? limit - items.length : Math.min(listPageItemsMax, Math.max(limit - items.length, 1) * 2);
    const page = await storage.list({ prefix, consistency: start.consistency, ...(readRevision === undefined ? {} : { revision: readRevision }), ...(startKey ? { startKey } : {}), ...(want > 0 ? { limit: want } : {}) });
    readRevision = page.revision;
    for (const [i, kv] of page.items.entries()) {
      const obj = decodeKeyValue(kv);
      if (!matches(obj)) continue;
      items.push(obj);
      if (limit > 0 && items.length === limit) {
        const next = page.items[i + 1]?.key ?? page.nextKey;
        const remaining = matches.empty ? page.remainingCount + (page.items.length - i - 1) : undefined;
        const more = next !== null && next !== undefined;
        return { items, revision: page.revision, continueToken: more ? encodeContinue({ revision: page.revision, startKey: next }) : '', ...(more && remaining !== undefined ? { remainingItemCount: remaining } : {}) };
      }
    }
    if (page.nextKey === null || limit === 0) return { items, revision: page.revision, continueToken: '' };
    startKey = page.nextKey;
  }
}
