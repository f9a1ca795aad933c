import { auditRequestObject } from '../../audit/auditor.ts';
import { badRequest } from '../../registry/errors/status-error.ts';
import type { DeleteOptions } from '../../registry/generic/store.ts';
import { decodeJson, decodeProtobufBody, decodeYaml, readBody } from '../body.ts';
import { isProtobufBody, mediaType } from '../negotiation.ts';
import { sendList, sendObject } from './read.ts';
import type { RequestContext } from './request-context.ts';
import { checkDeleteOptions, deleteOptionsFromQuery, listOptionsOf, type RequestedDeleteOptions } from './request-options.ts';

interface DeleteBody {
  gracePeriodSeconds?: unknown;
  propagationPolicy?: unknown;
  orphanDependents?: unknown;
  dryRun?: unknown;
  preconditions?: { uid?: unknown; resourceVersion?: unknown };
}

/**
 * The decoded body of a delete, or undefined when there is none (the query has the options then).
 * DeleteOptions has its message whatever the resource (kube decodes it with meta's own codecs), so
 * a custom resource's delete takes it in Protobuf too.
 */
async function readDeleteBody(ctx: RequestContext): Promise<DeleteBody | undefined> {
  const bytes = await readBody(ctx.body, ctx.bodyTimeoutMs);
  if (bytes.length === 0) return undefined;
  const type = mediaType(ctx.headers['content-type']);
  const decoded = isProtobufBody(type) ? decodeProtobufBody(bytes) : type === 'application/yaml' ? decodeYaml(bytes) : decodeJson(bytes);
  const value = decoded.value;
  auditRequestObject(ctx.headers, value);
  if (value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) throw badRequest('the body of a delete must be a DeleteOptions object');
  return value as DeleteBody;
}

function optionalString(value: unknown, field: string): string | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string') throw badRequest(`${field} must be a string`);
  return value;
}

/** DeleteOptions from a body: a field of the wrong type is a 400; null is absent, `""` a policy (an invalid one). */
function deleteOptionsFromBody(body: DeleteBody): RequestedDeleteOptions {
  const grace = body.gracePeriodSeconds ?? undefined;
  if (grace !== undefined && (typeof grace !== 'number' || !Number.isInteger(grace))) throw badRequest('gracePeriodSeconds must be an integer');
  const policy = body.propagationPolicy ?? undefined;
  if (policy !== undefined && typeof policy !== 'string') throw badRequest('propagationPolicy must be a string');
  const orphan = body.orphanDependents ?? undefined;
  if (orphan !== undefined && typeof orphan !== 'boolean') throw badRequest('orphanDependents must be a boolean');
  const dryRun = body.dryRun ?? [];
  if (!Array.isArray(dryRun) || !dryRun.every((v) => typeof v === 'string')) throw badRequest('dryRun must be a list of strings');
  const uid = optionalString(body.preconditions?.uid, 'preconditions.uid');
  const resourceVersion = optionalString(body.preconditions?.resourceVersion, 'preconditions.resourceVersion');
  return {
    dryRun,
    ...(grace === undefined ? {} : { gracePeriodSeconds: Math.min(grace, Number.MAX_SAFE_INTEGER) }),
    ...(policy === undefined ? {} : { propagationPolicy: policy }),
    ...(orphan === undefined ? {} : { orphanDependents: orphan }),
    ...(uid || resourceVersion ? { preconditions: { ...(uid ? { uid } : {}), ...(resourceVersion ? { resourceVersion } : {}) } } : {}),
  };
}

/**
 * DeleteOptions as kube-apiserver reads them: from the body when there is one, else from the
 * query (never both), then validated (422). `orphanDependents` is the deprecated form of the
 * policy (true: Orphan, false: Background); a negative grace period counts as 1 s (BeforeDelete).
 */
async function deleteOptions(ctx: RequestContext): Promise<DeleteOptions> {
  const body = await readDeleteBody(ctx);
  const requested = body === undefined ? deleteOptionsFromQuery(ctx.query) : deleteOptionsFromBody(body);
  checkDeleteOptions(ctx.apiDomain, requested);
  const { gracePeriodSeconds: grace, propagationPolicy: policy, orphanDependents: orphan, preconditions } = requested;
  return {
    dryRun: requested.dryRun.length > 0,
    ...(grace === undefined ? {} : { gracePeriodSeconds: grace < 0 ? 1 : grace }),
    ...(policy === undefined ? {} : { propagationPolicy: policy }),
    ...(orphan === undefined ? {} : { orphanDependents: orphan }),
    ...(preconditions === undefined ? {} : { preconditions }),
    ...(ctx.admission === undefined ? {} : { admission: ctx.admission }),
  };
}

/** DELETE of one object: 200 when removed, 202 when it waits for finalizers (a namespace answers 200 Terminating: its store says so). */
export async function handleDelete(ctx: RequestContext): Promise<void> {
  const opts = await deleteOptions(ctx);
  const obj = await ctx.store.delete(ctx.info.namespace, ctx.info.name ?? '', opts);
  const pending = obj.metadata.deletionTimestamp !== undefined && (obj.metadata.finalizers ?? []).length > 0;
  sendObject(ctx, pending ? 202 : 200, obj);
}

/** DELETE of a collection, by label and field selectors (its ListOptions are read before its DeleteOptions, as upstream). */
export async function handleDeleteCollection(ctx: RequestContext): Promise<void> {
  const { labelSelector = '', fieldSelector = '' } = listOptionsOf(ctx.query);
  const opts = await deleteOptions(ctx);
  sendList(ctx, await ctx.store.deleteCollection(ctx.info.namespace, { labelSelector, fieldSelector }, opts));
}
