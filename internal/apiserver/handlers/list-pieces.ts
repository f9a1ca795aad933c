// A LIST without a limit written item by item as its pages are read (list-pages.ts), instead of
// built whole and then serialized whole: the server holds a page of objects and a piece of JSON,
// whatever the list's size. The bytes are those of the whole answer (JSON.stringify of the list
// object), only produced in order: every field but the items first, then the items, then the close.
// A Protobuf list is encoded a page at a time too (its envelope needs the length first, so its
// bytes are all held before they go): never one step long enough to starve the Raft heartbeats.
import type { ListPages } from '../../registry/generic/list-pages.ts';
import { encodeProtobufListPieces } from '../protobuf/index.ts';
import type { KObject } from '../../registry/schema/declaration.ts';
import { parseIncludeObject, partialMetadata, tableParts } from '../table.ts';
import type { RequestContext } from './request-context.ts';
import { listPieceCharsMin as pieceCharsMin } from '../limits.ts';

/** Whether a LIST is sent in pieces: a whole list (no limit) in compact JSON (object, Table or metadata view) or Protobuf (object or metadata view). */
export function listSentInPieces(ctx: RequestContext, limit: number | undefined): boolean {
  const { format, protobuf } = ctx.out.options;
  if (limit !== undefined && limit > 0) return false;
  const pieceable = protobuf === undefined ? format === 'json' || format === 'table' || format === 'metadata' : format === 'json' || format === 'metadata';
  return pieceable && ctx.out.canSendPieces();
}

/** The pages with each item made by `itemOf`. */
async function* mapPages<T, U>(pages: AsyncIterable<readonly T[]>, itemOf: (item: T) => U): AsyncGenerator<readonly U[]> {
  for await (const page of pages) yield page.map(itemOf);
}

/** The Protobuf body of a whole list read in pages (the object or metadata view), then sent. */
async function sendProtobufListPieces(ctx: RequestContext, listed: ListPages, mediaType: string): Promise<void> {
  const metadata = listed.head.metadata;
  const parts = ctx.out.options.format === 'metadata'
    ? await encodeProtobufListPieces({ kind: 'PartialObjectMetadataList', apiVersion: `meta.${ctx.apiDomain}/v1`, metadata }, mapPages(listed.pages, (o: KObject) => partialMetadata(o, ctx.apiDomain)))
    : await encodeProtobufListPieces(listed.head, listed.pages);
  await ctx.out.sendPieces(200, mediaType, parts);
}

/**
 * The JSON of `head` with one more field, `field`, an array of the pages' items as `itemOf` makes
 * them, in pieces of at least pieceCharsMin characters: byte for byte JSON.stringify of the whole
 * object (that field last), and a newline, as Responder.send ends a body.
 */
export async function* jsonArrayDocument<T>(head: Record<string, unknown>, field: string, pages: AsyncIterable<readonly T[]>, itemOf: (item: T) => unknown): AsyncGenerator<string> {
  const open = JSON.stringify(head);
  let piece = `${open === '{}' ? '{' : `${open.slice(0, -1)},`}${JSON.stringify(field)}:[`;
  let first = true;
  for await (const page of pages) {
    for (const item of page) {
      piece += first ? JSON.stringify(itemOf(item)) : `,${JSON.stringify(itemOf(item))}`;
      first = false;
      if (piece.length >= pieceCharsMin) {
        yield piece;
        piece = '';
      }
    }
  }
  yield `${piece}]}\n`;
}

/** Sends a whole list read in pages, in the request's view, item by item as the client takes them. */
export async function sendListPieces(ctx: RequestContext, listed: ListPages): Promise<void> {
  const { format, protobuf } = ctx.out.options;
  if (protobuf !== undefined) return sendProtobufListPieces(ctx, listed, protobuf);
  const metadata = listed.head.metadata;
  let body: AsyncIterable<string>;
  if (format === 'table') {
    const { head, row } = tableParts(ctx.served.decl, metadata, { apiDomain: ctx.apiDomain, includeObject: parseIncludeObject(ctx.query.get('includeObject')) });
    body = jsonArrayDocument(head, 'rows', listed.pages, row);
  } else if (format === 'metadata') {
    const head = { kind: 'PartialObjectMetadataList', apiVersion: `meta.${ctx.apiDomain}/v1`, metadata };
    body = jsonArrayDocument(head, 'items', listed.pages, (o: KObject) => partialMetadata(o, ctx.apiDomain));
  } else {
    body = jsonArrayDocument(listed.head, 'items', listed.pages, (o: KObject) => o);
  }
  await ctx.out.sendPieces(200, 'application/json', body);
}
