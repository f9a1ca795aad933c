import { badRequest, hasStatus } from '../../registry/errors/status-error.ts';
import { deleteNamespace, type NamespaceStores } from '../../registry/core/namespace-deletion.ts';
import type { DeleteOptions } from '../../registry/generic/store.ts';
import { decodeJson, decodeYaml, readBody } from '../body.ts';
import { mediaType } from '../negotiation.ts';
import { protectedNamespaces } from './namespace-lifecycle.ts';
import { sendList, sendObject } from './read.ts';
import { dryRunOf, intParam, type RequestContext } from './request-context.ts';

interface DeleteBody {
  gracePeriodSeconds?: unknown;
  propagationPolicy?: unknown;
  orphanDependents?: unknown;
  dryRun?: unknown;
  preconditions?: { uid?: unknown; resourceVersion?: unknown };
}

async function readDeleteBody(ctx: RequestContext): Promise<DeleteBody> {
  const bytes = await readBody(ctx.body, ctx.bodyTimeoutMs);
  if (bytes.length === 0) return {};
  const decoded = mediaType(ctx.headers['content-type']) === 'application/yaml' ? decodeYaml(bytes) : decodeJson(bytes);
  const value = decoded.value;
  if (value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) throw badRequest('the body of a delete must be a DeleteOptions object');
  return value as DeleteBody;
}

function optionalString(value: unknown, field: string): string | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string') throw badRequest(`${field} must be a string`);
  return value;
}

/** DeleteOptions from the body and the query (the query wins, as Kubernetes). */
async function deleteOptions(ctx: RequestContext): Promise<DeleteOptions> {
  const body = await readDeleteBody(ctx);
  const graceQuery = intParam(ctx.query, 'gracePeriodSeconds');
  const grace = graceQuery ?? body.gracePeriodSeconds;
  if (grace !== undefined && grace !== null && (typeof grace !== 'number' || !Number.isInteger(grace) || grace < 0)) throw badRequest('gracePeriodSeconds must be a non-negative integer');
  let policy = optionalString(ctx.query.get('propagationPolicy') ?? body.propagationPolicy, 'propagationPolicy');
  if (policy === undefined && body.orphanDependents === true) policy = 'Orphan';
  const dryRun = dryRunOf(ctx.query) || (Array.isArray(body.dryRun) && body.dryRun.includes('All'));
  const uid = optionalString(body.preconditions?.uid, 'preconditions.uid');
  const resourceVersion = optionalString(body.preconditions?.resourceVersion, 'preconditions.resourceVersion');
  return {
    dryRun,
    ...(typeof grace === 'number' ? { gracePeriodSeconds: grace } : {}),
    ...(policy === undefined ? {} : { propagationPolicy: policy }),
    ...(uid || resourceVersion ? { preconditions: { ...(uid ? { uid } : {}), ...(resourceVersion ? { resourceVersion } : {}) } } : {}),
  };
}

/** DELETE of one object: 200 when removed, 202 when it waits for finalizers; a namespace answers 200 Terminating. */
export async function handleDelete(ctx: RequestContext): Promise<void> {
  const opts = await deleteOptions(ctx);
  const name = ctx.info.name ?? '';
  if (ctx.namespaceStores && ctx.served.group === '' && ctx.served.decl.plural === 'namespaces') {
    const ns = await deleteNamespace(ctx.namespaceStores, name, opts);
    sendObject(ctx, 200, ns);
    return;
  }
  const obj = await ctx.store.delete(ctx.info.namespace, name, opts);
  const pending = obj.metadata.deletionTimestamp !== undefined && (obj.metadata.finalizers ?? []).length > 0;
  sendObject(ctx, pending ? 202 : 200, obj);
}

/** DELETE of a collection of namespaces: each becomes Terminating (protected ones are skipped). */
async function deleteNamespaceCollection(ctx: RequestContext, stores: NamespaceStores, opts: DeleteOptions): Promise<void> {
  const q = ctx.query;
  const list = await stores.namespaces.list(undefined, { labelSelector: q.get('labelSelector') ?? '', fieldSelector: q.get('fieldSelector') ?? '' });
  const items = [];
  for (const ns of list.items) {
    const name = ns.metadata.name ?? '';
    if (protectedNamespaces.has(name)) continue;
    try {
      items.push(await deleteNamespace(stores, name, opts));
    } catch (err) {
      if (!hasStatus(err, 404)) throw err;
    }
  }
  sendList(ctx, { ...list, items });
}

/** DELETE of a collection, by label and field selectors. */
export async function handleDeleteCollection(ctx: RequestContext): Promise<void> {
  const opts = await deleteOptions(ctx);
  if (ctx.namespaceStores && ctx.served.group === '' && ctx.served.decl.plural === 'namespaces') return deleteNamespaceCollection(ctx, ctx.namespaceStores, opts);
  const q = ctx.query;
  const list = await ctx.store.deleteCollection(ctx.info.namespace, { labelSelector: q.get('labelSelector') ?? '', fieldSelector: q.get('fieldSelector') ?? '' }, opts);
  sendList(ctx, list);
}
