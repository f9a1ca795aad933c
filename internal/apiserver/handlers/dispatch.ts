import { StatusError } from '../../registry/errors/status-error.ts';
import { deprecationWarningOf } from '../deprecation.ts';
import { dispatchDeclaredSubresource } from './declared-subresources.ts';
import { methodNotAllowed, pathNotFound, resourceNotFound } from './route-errors.ts';
import { handleDelete, handleDeleteCollection } from './delete.ts';
import { handleFinalize } from './namespace-finalize.ts';
import { handlePatch } from './patch.ts';
import { handleGet, handleList } from './read.ts';
import type { RequestContext } from './request-context.ts';
import { handleGetScale, handleUpdateScale } from './subresources.ts';
import { handleWatch } from './watch.ts';
import { handleCreate, handleUpdate } from './write.ts';

export { methodNotAllowed, pathNotFound, resourceNotFound };

async function dispatchSubresource(ctx: RequestContext, sub: string): Promise<void> {
  const { verb } = ctx.info;
  const subs = ctx.served.decl.subresources ?? {};
  if (sub === 'status' && subs.status) {
    if (verb === 'get') return handleGet(ctx);
    if (verb === 'update') return handleUpdate(ctx);
    if (verb === 'patch') return handlePatch(ctx);
    throw methodNotAllowed();
  }
  if (sub === 'finalize' && subs.finalize) {
    if (verb === 'update') return handleFinalize(ctx);
    throw methodNotAllowed();
  }
  if (sub === 'scale' && subs.scale) {
    if (verb === 'get') return handleGetScale(ctx);
    if (verb === 'update') return handleUpdateScale(ctx);
    if (verb === 'patch') return handlePatch(ctx);
    throw methodNotAllowed();
  }
  const declared = subs.more?.[sub];
  if (declared !== undefined) return dispatchDeclaredSubresource(ctx, sub, declared);
  throw pathNotFound();
}

/**
 * 405 for a verb the resource does not serve (its declaration's `verbs`): a watch names the
 * missing capability, as kube-apiserver's list handler does; other verbs have no route.
 */
function checkServedVerb(ctx: RequestContext): void {
  const { decl } = ctx.served;
  const { verb } = ctx.info;
  if (decl.verbs === undefined || (decl.verbs as readonly string[]).includes(verb)) return;
  if (verb === 'watch') {
    const resource = ctx.served.group === '' ? decl.plural : `${decl.plural}.${ctx.served.group}`;
    throw new StatusError(405, 'MethodNotAllowed', `watch is not supported on resources of kind "${resource}"`);
  }
  throw methodNotAllowed();
}

/** Routes a resource request to its verb handler. Handlers never look at the kind. */
export async function dispatchResource(ctx: RequestContext): Promise<void> {
  const { verb, name, subresource } = ctx.info;
  if (ctx.served.decl.namespaced && name !== undefined && ctx.info.namespace === undefined) throw pathNotFound();
  // Only a sub-resource that takes a path (proxy) may have more segments after its name.
  if (ctx.info.subpath !== undefined && (subresource === undefined || ctx.served.decl.subresources?.more?.[subresource]?.takesPath !== true)) throw pathNotFound();
  const deprecation = deprecationWarningOf(ctx.served);
  if (deprecation !== undefined) ctx.out.warn(deprecation);
  if (subresource !== undefined) return dispatchSubresource(ctx, subresource);
  checkServedVerb(ctx);
  switch (verb) {
    case 'get':
      return handleGet(ctx);
    case 'list':
      return handleList(ctx);
    case 'watch':
      return handleWatch(ctx);
    case 'create':
      if (name !== undefined) throw methodNotAllowed();
      if (ctx.served.decl.namespaced && ctx.info.namespace === undefined) throw methodNotAllowed();
      return handleCreate(ctx);
    case 'update':
      if (name === undefined) throw methodNotAllowed();
      return handleUpdate(ctx);
    case 'patch':
      if (name === undefined) throw methodNotAllowed();
      return handlePatch(ctx);
    case 'delete':
      return handleDelete(ctx);
    case 'deletecollection':
      return handleDeleteCollection(ctx);
  }
}
