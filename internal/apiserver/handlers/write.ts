import type { UserInfo } from '../../authn/user-info.ts';
import { badRequest } from '../../registry/errors/status-error.ts';
import type { WriteAdmission } from '../../registry/generic/write-admission.ts';
import type { KObject } from '../../registry/schema/declaration.ts';
import { readObject } from './decode-object.ts';
import { sendObject } from './read.ts';
import { dryRunOf, fieldManagerOf, type RequestContext } from './request-context.ts';
import { checkWriteOptions } from './request-options.ts';
import { writtenSubresource } from './written-subresource.ts';

/** What a handler passes the store with every write: dryRun, the field manager, the request's user and its create check. */
export interface WriteRequestOptions {
  readonly dryRun: boolean;
  readonly fieldManager: string;
  readonly user: UserInfo;
  readonly authorizeCreate: () => Promise<void>;
  readonly admission?: WriteAdmission;
}

/**
 * The write options of a request, dryRun, the field manager and its user, once its Create-,
 * Update- or PatchOptions are valid (422 otherwise; a patch names its media type).
 */
export function writeOptions(ctx: RequestContext, patchType?: string): WriteRequestOptions {
  checkWriteOptions(ctx, patchType);
  return {
    dryRun: dryRunOf(ctx.query), fieldManager: fieldManagerOf(ctx.query, ctx.headers), user: ctx.user, authorizeCreate: ctx.authorizeCreate,
    ...(ctx.admission === undefined ? {} : { admission: ctx.admission }),
  };
}

/** POST to a collection: 201 with the stored object. */
export async function handleCreate(ctx: RequestContext): Promise<void> {
  if (ctx.served.decl.namespaced && ctx.info.namespace === undefined) throw badRequest('the namespace of the object must be given in the request path (/namespaces/{namespace}/...)');
  const opts = writeOptions(ctx);
  const obj = await readObject(ctx);
  // The decoded body is this request's alone (the audit keeps its own serialization): no copy of it.
  const result = await ctx.store.create(ctx.info.namespace, obj, { ...opts, inputOwned: true });
  for (const w of result.warnings) ctx.out.warn(w);
  sendObject(ctx, 201, result.object);
}

function checkName(ctx: RequestContext, obj: KObject): void {
  const name = ctx.info.name ?? '';
  const bodyName = obj.metadata.name;
  if (bodyName === undefined || bodyName === '') obj.metadata.name = name;
  else if (bodyName !== name) throw badRequest(`the name of the object (${bodyName}) does not match the name on the URL (${name})`);
}

/** PUT of one object (or its status): 200, or 201 when it created the object. */
export async function handleUpdate(ctx: RequestContext): Promise<void> {
  const opts = writeOptions(ctx);
  const obj = await readObject(ctx);
  checkName(ctx, obj);
  const subresource = writtenSubresource(ctx);
  const result = await ctx.store.update(ctx.info.namespace, ctx.info.name ?? '', obj, { ...opts, inputOwned: true, ...(subresource ? { subresource } : {}) });
  for (const w of result.warnings) ctx.out.warn(w);
  sendObject(ctx, result.created ? 201 : 200, result.object);
}

