import type { KObject } from '../../registry/schema/declaration.ts';
import type { ListObject } from '../../registry/generic/store.ts';
import { parseIncludeObject, partialMetadata, toTable } from '../table.ts';
import type { RequestContext } from './request-context.ts';
import { listOptionsOf } from './request-options.ts';
import { readListPages } from '../../registry/generic/list-pages.ts';
import { listSentInPieces, sendListPieces } from './list-pieces.ts';
import { listPiecesPageItems } from '../limits.ts';

/** Sends one object in the negotiated view (object, Table or metadata). */
export function sendObject(ctx: RequestContext, code: number, obj: KObject): void {
  const format = ctx.out.options.format;
  if (format === 'table') {
    const table = toTable(ctx.served.decl, [obj], { resourceVersion: obj.metadata.resourceVersion ?? '' }, { apiDomain: ctx.apiDomain, includeObject: parseIncludeObject(ctx.query.get('includeObject')) });
    ctx.out.send(code, table);
  } else if (format === 'metadata') ctx.out.send(code, partialMetadata(obj, ctx.apiDomain));
  else ctx.out.send(code, obj);
}

/** Sends a list in the negotiated view. */
export function sendList(ctx: RequestContext, list: ListObject): void {
  const format = ctx.out.options.format;
  if (format === 'table') {
    ctx.out.send(200, toTable(ctx.served.decl, list.items, list.metadata, { apiDomain: ctx.apiDomain, includeObject: parseIncludeObject(ctx.query.get('includeObject')) }));
  } else if (format === 'metadata') {
    ctx.out.send(200, { kind: 'PartialObjectMetadataList', apiVersion: `meta.${ctx.apiDomain}/v1`, metadata: list.metadata, items: list.items.map((o) => partialMetadata(o, ctx.apiDomain)) });
  } else ctx.out.send(200, list);
}

/** GET of one object. */
export async function handleGet(ctx: RequestContext): Promise<void> {
  const obj = await ctx.store.get(ctx.info.namespace, ctx.info.name ?? '', ctx.query.get('resourceVersion') ?? undefined);
  sendObject(ctx, 200, obj);
}

/**
 * GET of a collection. A whole list (no limit) is read in pages and, when it takes more than one,
 * written item by item as the client takes it (list-pieces.ts): the same bytes, never all in memory.
 */
export async function handleList(ctx: RequestContext): Promise<void> {
  const { labelSelector, fieldSelector, limit, continue: token, resourceVersion, resourceVersionMatch } = listOptionsOf(ctx.query);
  const query = {
    ...(labelSelector === undefined ? {} : { labelSelector }),
    ...(fieldSelector === undefined ? {} : { fieldSelector }),
    ...(token === undefined ? {} : { continue: token }),
    ...(resourceVersion === undefined ? {} : { resourceVersion }),
    ...(resourceVersionMatch === undefined ? {} : { resourceVersionMatch }),
  };
  if (!listSentInPieces(ctx, limit)) {
    sendList(ctx, await ctx.store.list(ctx.info.namespace, { ...query, ...(limit === undefined ? {} : { limit }) }));
    return;
  }
  const listed = await readListPages(ctx.store, ctx.info.namespace, query, listPiecesPageItems);
  if (listed.whole !== null) sendList(ctx, listed.whole);
  else await sendListPieces(ctx, listed);
}
