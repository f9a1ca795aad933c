import type { KObject } from '../../registry/schema/declaration.ts';
import type { ListObject } from '../../registry/generic/store.ts';
import { parseIncludeObject, partialMetadata, toTable } from '../table.ts';
import { intParam, type RequestContext } from './request-context.ts';

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
  const q = ctx.query;
  const limit = intParam(q, 'limit');
  const list = await ctx.store.list(ctx.info.namespace, {
    ...(q.get('labelSelector') ? { labelSelector: q.get('labelSelector') ?? '' } : {}),
    ...(q.get('fieldSelector') ? { fieldSelector: q.get('fieldSelector') ?? '' } : {}),
    ...(limit === undefined ? {} : { limit }),
    ...(q.get('continue') ? { continue: q.get('continue') ?? '' } : {}),
    ...(q.get('resourceVersion') !== null ? { resourceVersion: q.get('resourceVersion') ?? '' } : {}),
    ...(q.get('resourceVersionMatch') ? { resourceVersionMatch: q.get('resourceVersionMatch') ?? '' } : {}),
  });
  sendList(ctx, list);
}
