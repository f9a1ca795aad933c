// Lists a whole collection in pages (limit/continue) as one consistent snapshot.
import type { OrchClient, Query } from './client.ts';
import { ApiError } from './errors.ts';
import { listPagesMax, listRestartsMax } from './limits.ts';
import type { KubeObject, ObjectList } from './objects.ts';

/** A complete collection: every item and the resourceVersion the snapshot was taken at. */
export interface ListSnapshot<T extends KubeObject> {
  readonly items: T[];
  readonly resourceVersion: string;
}

/** Options of `listAll`. */
export interface ListAllOptions {
  /** Items per page; unset lists in one request. */
  readonly pageSize?: number;
  readonly query?: Query;
  readonly signal?: AbortSignal;
}

/**
 * Lists every item of `path`, following continue tokens. All pages share the first page's
 * resourceVersion (the server promises it); an expired token (410) restarts the list from the
 * beginning, at most `listRestartsMax` times. Throws ApiError / UnavailableError.
 */
export async function listAll<T extends KubeObject>(client: OrchClient, path: string, options: ListAllOptions = {}): Promise<ListSnapshot<T>> {
  for (let restart = 0; ; restart += 1) {
    try {
      return await listOnce<T>(client, path, options);
    } catch (error) {
      if (!(error instanceof ApiError) || error.status !== 410 || restart >= listRestartsMax) throw error;
    }
  }
}

async function listOnce<T extends KubeObject>(client: OrchClient, path: string, options: ListAllOptions): Promise<ListSnapshot<T>> {
  const items: T[] = [];
  let resourceVersion = '';
  let token: string | undefined;
  for (let page = 0; page < listPagesMax; page += 1) {
    const list = await client.list<ObjectList<T>>(path, {
      query: { ...options.query, limit: options.pageSize, continue: token },
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    });
    items.push(...(list.items ?? []));
    if (page === 0) resourceVersion = list.metadata?.resourceVersion ?? '';
    token = list.metadata?.continue;
    if (token === undefined || token === '') return { items, resourceVersion };
  }
  throw new Error(`assertion failed: list of ${path} did not end after ${listPagesMax} pages`);
}
