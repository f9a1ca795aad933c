import { startWatch, type ApiWatchEvent } from '../../registry/generic/watch.ts';
import type { KObject } from '../../registry/schema/declaration.ts';
import { encodeProtobufWatchFrame, type KubeObject } from '../protobuf/index.ts';
import { parseIncludeObject, partialMetadata, toTable } from '../table.ts';
import { watchDeadlineBookmarkLeadMs, watchTimeoutSecondsDefault, watchTimeoutSecondsMax } from '../limits.ts';
import type { RequestContext } from './request-context.ts';
import { listOptionsOf } from './request-options.ts';
import { WatchWriter } from './watch-writer.ts';

/**
 * The event in the negotiated view: objects become one-row Tables (headers only in the first), or
 * their metadata. A BOOKMARK is metadata too in that view (kube transforms every event's object):
 * a metadata client decodes each event as PartialObjectMetadata.
 */
function viewOf(ctx: RequestContext, ev: ApiWatchEvent, first: boolean): ApiWatchEvent {
  const format = ctx.out.options.format;
  if (ev.type === 'ERROR' || format === 'json' || format === 'yaml') return ev;
  const obj = ev.object as KObject;
  if (format === 'metadata') return { type: ev.type, object: partialMetadata(obj, ctx.apiDomain) };
  if (ev.type === 'BOOKMARK') return ev;
  const table = toTable(ctx.served.decl, [obj], { resourceVersion: obj.metadata.resourceVersion ?? '' }, { apiDomain: ctx.apiDomain, includeObject: parseIncludeObject(ctx.query.get('includeObject')) });
  if (!first) table.columnDefinitions = [];
  return { type: ev.type, object: table };
}

/**
 * How long a watch runs (kube-apiserver's ListResource): `timeoutSeconds` up to the maximum; absent
 * or 0 is the default, a negative value ends the watch at once (`?timeout=` plays no part).
 */
function watchTimeoutMs(timeoutSeconds: number | undefined): number {
  if (timeoutSeconds === undefined || timeoutSeconds === 0) return watchTimeoutSecondsDefault * 1000;
  return Math.max(0, Math.min(timeoutSeconds, watchTimeoutSecondsMax)) * 1000;
}

function plainView(ctx: RequestContext): boolean {
  const format = ctx.out.options.format;
  return format === 'json' || format === 'yaml';
}

// One change reaches every watcher as the same (immutable) object, so its line is encoded once,
// to the bytes every watcher's connection is given.
const encodedLines = new WeakMap<object, Partial<Record<ApiWatchEvent['type'], Buffer>>>();

function encodedLine(ev: ApiWatchEvent): Buffer {
  let byType = encodedLines.get(ev.object);
  if (byType === undefined) encodedLines.set(ev.object, (byType = {}));
  return (byType[ev.type] ??= Buffer.from(`${JSON.stringify(ev)}\n`));
}

// Likewise a change's Protobuf frame, encoded once for every Protobuf watcher (either media type name).
const encodedFrames = new WeakMap<object, Partial<Record<ApiWatchEvent['type'], Buffer>>>();

function encodedFrame(ev: ApiWatchEvent): Buffer {
  let byType = encodedFrames.get(ev.object);
  if (byType === undefined) encodedFrames.set(ev.object, (byType = {}));
  return (byType[ev.type] ??= encodeProtobufWatchFrame(ev.type, ev.object as KubeObject));
}

/**
 * How a watch's events are written: JSON lines (kube answers `application/json`, no stream
 * parameter), or length-prefixed Protobuf frames under `<type>;stream=watch`. Each event is one
 * write, flushed as it comes.
 */
interface EventEncoding {
  readonly contentType: string;
  encode(ev: ApiWatchEvent, first: boolean): Buffer;
}

function eventEncoding(ctx: RequestContext): EventEncoding {
  const protobuf = ctx.out.options.protobuf;
  const plain = plainView(ctx);
  if (protobuf === undefined) {
    return { contentType: 'application/json', encode: (ev, first) => (plain ? encodedLine(ev) : Buffer.from(`${JSON.stringify(viewOf(ctx, ev, first))}\n`)) };
  }
  return {
    contentType: `${protobuf};stream=watch`,
    encode: (ev, first) => {
      if (plain) return encodedFrame(ev);
      const view = viewOf(ctx, ev, first);
      return encodeProtobufWatchFrame(view.type, view.object as KubeObject);
    },
  };
}

/**
 * A watch: a chunked stream of `{type, object}` JSON documents, one per line (or Protobuf frames,
 * eventEncoding), until the client
 * leaves, `timeoutSeconds` passes or the store ends the watch (an ERROR event). A watch that allows
 * bookmarks gets one shortly before its deadline, as from kube-apiserver.
 *
 * Nothing is written while the connection holds data the client has not taken (WatchWriter): the
 * store queues the events meanwhile, within its per-watcher bound, and gives up on a watcher that
 * falls further behind. Such a client, or one that takes nothing for `watchStallTimeoutMs` (the
 * initial objects of its watch wait for it too), is dropped: its connection or stream ended at once,
 * instead of the server holding every later event. When the handler itself ends the watch
 * (`timeoutSeconds`, shutdown), what is under way still goes out and the stream ends normally.
 */
export async function handleWatch(ctx: RequestContext): Promise<void> {
  const name = ctx.info.name;
  const { labelSelector, fieldSelector, resourceVersion, resourceVersionMatch, allowWatchBookmarks, sendInitialEvents, timeoutSeconds } = listOptionsOf(ctx.query);
  const watch = await startWatch(ctx.store, ctx.info.namespace, {
    ...(labelSelector === undefined ? {} : { labelSelector }),
    ...(fieldSelector === undefined ? {} : { fieldSelector }),
    ...(name === undefined ? {} : { name }),
    ...(resourceVersion === undefined ? {} : { resourceVersion }),
    ...(resourceVersionMatch === undefined ? {} : { resourceVersionMatch }),
    allowWatchBookmarks,
    ...(sendInitialEvents === undefined ? {} : { sendInitialEvents }),
  });
  const timeoutMs = watchTimeoutMs(timeoutSeconds);
  const timer = setTimeout(() => watch.stop(), timeoutMs);
  const bookmarkTimer = setTimeout(() => watch.requestBookmark(), Math.max(0, timeoutMs - watchDeadlineBookmarkLeadMs));
  void ctx.closed.then(() => watch.stop());
  const raw = ctx.out.raw;
  // Not ctx.closed: a shutdown stops the watch, which then ends normally once what is under way is out.
  const clientLeft = new Promise<void>((resolve) => raw.on('close', resolve));
  const writer = new WatchWriter(raw, Promise.race([watch.givenUp, clientLeft]), ctx.watchStallTimeoutMs);
  let dropped = false;
  const encoding = eventEncoding(ctx);
  ctx.out.startStream(encoding.contentType);
  try {
    let first = true;
    for await (const ev of watch.events) {
      dropped = !(await writer.write(encoding.encode(ev, first)));
      first = false;
      if (dropped || ev.type === 'ERROR') break;
    }
  } finally {
    clearTimeout(timer);
    clearTimeout(bookmarkTimer);
    watch.stop();
    if (dropped) raw.destroy();
    else raw.end();
  }
}
