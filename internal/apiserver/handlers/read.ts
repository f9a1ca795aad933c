import type { KObject } from '../../registry/schema/declaration.ts';
import type { ListObject } from '../../registry/generic/store.ts';
import { parseIncludeObject, partialMetadata, toTable } from '../table.ts';
import type { RequestContext } from './request-context.ts';
import { listOptionsOf } from './request-options.ts';

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

/** GET of a collection. */
export async function handleList(ctx: RequestContext): Promise<void> {
  const { labelSelector, fieldSelector, limit, continue: token, resourceVersion, resourceVersionMatch } = listOptionsOf(ctx.query);
  const list = await ctx.store.list(ctx.info.namespace, {
    ...(labelSelector === undefined ? {} : { labelSelector }),
    ...(fieldSelector === undefined ? {} : { fieldSelector }),
    ...(limit === undefined ? {} : { limit }),
    ...(token === undefined ? {} : { continue: token }),
    ...(resourceVersion === undefined ? {} : { resourceVersion }),
    ...(resourceVersionMatch === undefined ? {} : { resourceVersionMatch }),
  });
  sendList(ctx, list);
}
