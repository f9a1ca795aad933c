import { admitAsIs } from '../../registry/generic/write-admission.ts';
import { auditRequestObject } from '../../audit/auditor.ts';
import { badRequest } from '../../registry/errors/status-error.ts';
import type { KObject, SubresourceDeclaration } from '../../registry/schema/declaration.ts';
import type { SubresourceCall } from '../../registry/generic/subresource-store.ts';
import { checkObject, readDecodedBody } from './decode-object.ts';
import type { RequestContext } from './request-context.ts';
import { methodNotAllowed } from './route-errors.ts';
import { handleGet } from './read.ts';
import { handlePatch } from './patch.ts';
import { handleUpdate, writeOptions } from './write.ts';

/**
 * Decodes the body of a create on a sub-resource as its declaration says (pods/eviction takes a
 * policy/v1 or policy/v1beta1 Eviction): type meta, namespace, fields per `fieldValidation`,
 * value types; 400 for another apiVersion or kind, 422 for a value of the wrong type.
 */
async function readBody(ctx: RequestContext, declared: SubresourceDeclaration, body: NonNullable<SubresourceDeclaration['body']>): Promise<KObject> {
  const decoded = await readDecodedBody(ctx);
  const value = decoded.value;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw badRequest('the request body must be a JSON or YAML object');
  const given = (value as { apiVersion?: unknown }).apiVersion;
  const apiVersion = typeof given === 'string' && given !== '' ? given : (body.apiVersions[0] ?? '');
  if (!body.apiVersions.includes(apiVersion)) throw badRequest(`the API version in the data (${String(given)}) does not match the expected API version (${body.apiVersions[0] ?? ''})`);
  const slash = apiVersion.indexOf('/');
  const group = slash < 0 ? '' : apiVersion.slice(0, slash);
  const decl = { ...ctx.served.decl, kind: declared.kind, fields: body.fields, required: [], custom: false, description: '' };
  const obj = checkObject({ ...ctx, served: { decl, group, version: apiVersion.slice(slash + 1), apiVersion } }, decoded);
  auditRequestObject(ctx.headers, obj);
  return obj;
}

function callOf(ctx: RequestContext, options: { dryRun: boolean; fieldManager: string }): SubresourceCall {
  return { namespace: ctx.info.namespace, name: ctx.info.name ?? '', path: ctx.info.subpath ?? '', query: ctx.query, ...options };
}

/**
 * Serves one of the kind's own sub-resources (its declaration's Subresources.more): a view goes
 * to the generic handlers, as status does; any other to the store's SubresourceStore of that
 * name (a create gets its decoded body, any verb of a connecting one its connect). 405 for a
 * verb the declaration does not list.
 */
export async function dispatchDeclaredSubresource(ctx: RequestContext, sub: string, declared: SubresourceDeclaration): Promise<void> {
  const verb = ctx.info.verb;
  if (!(declared.verbs as readonly string[]).includes(verb)) throw methodNotAllowed();
  if (declared.view !== undefined) {
    if (verb === 'get') return handleGet(ctx);
    if (verb === 'update') return handleUpdate(ctx);
    return handlePatch(ctx);
  }
  const store = ctx.store.subresources[sub];
  if (store === undefined) throw new Error(`assert: ${ctx.served.decl.plural}/${sub} is declared but its store serves no behaviour`);
  if (declared.body !== undefined && store.create !== undefined) {
    const options = writeOptions(ctx);
    const given = await readBody(ctx, declared, declared.body);
    const body = ctx.admission === undefined ? given : ((await admitAsIs(ctx.admission, 'CREATE', given, undefined)) ?? given);
    const reply = await store.create(callOf(ctx, options), body);
    for (const w of reply.warnings ?? []) ctx.out.warn(w);
    ctx.out.send(reply.code, reply.object);
    return;
  }
  if (store.connect === undefined) throw new Error(`assert: ${ctx.served.decl.plural}/${sub} has neither a body nor a connect`);
  if (ctx.admission !== undefined) await admitAsIs(ctx.admission, 'CONNECT', undefined, undefined);
  const reply = await store.connect(callOf(ctx, { dryRun: false, fieldManager: '' }), verb);
  ctx.out.send(reply.code, reply.object);
}
