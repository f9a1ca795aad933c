import { auditRequestPatch } from '../../audit/auditor.ts';
import { applyStrategicMergePatch } from '../../patch/index.ts';
import { badRequest, StatusError } from '../../registry/errors/status-error.ts';
import { patchErrorStatus, serverSideApply } from '../../registry/generic/apply-patch.ts';
import { applyJsonPatch } from '../../registry/generic/json-patch.ts';
import { applyMergePatch } from '../../registry/generic/merge-patch.ts';
import { writeScale } from '../../registry/generic/scale.ts';
import type { KObject } from '../../registry/schema/declaration.ts';
import { objectPatchSchema } from '../../registry/schema/patch-schema.ts';
import { decodeJson, decodeYaml, readBody } from '../body.ts';
import { mediaType, unsupportedMediaType } from '../negotiation.ts';
import { boolParam } from '../query-params.ts';
import { checkObject } from './decode-object.ts';
import { sendObject } from './read.ts';
import type { RequestContext } from './request-context.ts';
import { writtenSubresource } from './written-subresource.ts';
import { writeOptions, type WriteRequestOptions } from './write.ts';

const applyType = 'application/apply-patch+yaml';
const smpType = 'application/strategic-merge-patch+json';
const builtinPatchTypes = ['application/json-patch+json', 'application/merge-patch+json', smpType, applyType];
const customPatchTypes = ['application/json-patch+json', 'application/merge-patch+json', applyType];

/** Turns the patch document into a function from the current object to the patched one. */
function patcher(ctx: RequestContext, type: string, patch: unknown): (current: unknown) => unknown {
  if (type === 'application/json-patch+json') return (current) => applyJsonPatch(current, patch);
  if (typeof patch !== 'object' || patch === null || Array.isArray(patch)) throw new StatusError(400, 'BadRequest', 'a merge patch must be a JSON object');
  if (type === smpType) {
    const schema = objectPatchSchema(ctx.served.decl);
    return (current) => {
      try {
        return applyStrategicMergePatch(current, patch, schema);
      } catch (err) {
        throw patchErrorStatus(err);
      }
    };
  }
  return (current) => applyMergePatch(current, patch);
}

/** PATCH of one object, its status or its scale. */
export async function handlePatch(ctx: RequestContext): Promise<void> {
  const type = mediaType(ctx.headers['content-type']);
  const accepted = ctx.served.decl.custom ? customPatchTypes : builtinPatchTypes;
  if (!accepted.includes(type)) throw unsupportedMediaType(type, accepted);
  // PatchOptions: `force` only with apply, where it is a bool parameter (`force=yes` forces too).
  const opts = writeOptions(ctx, type);
  if (type === applyType) return handleApply(ctx, opts, boolParam(ctx.query, 'force'));
  const bytes = await readBody(ctx.body, ctx.bodyTimeoutMs);
  const { value: patch, inexactIntegers } = decodeJson(bytes);
  auditRequestPatch(ctx.headers, patch);
  const apply = patcher(ctx, type, patch);
  const name = ctx.info.name ?? '';
  if (ctx.info.subresource === 'scale') {
    const scale = await writeScale(ctx.store, ctx.info.namespace, name, (s) => apply(s) as KObject, opts);
    ctx.out.send(200, scale);
    return;
  }
  const subresource = writtenSubresource(ctx);
  const result = await ctx.store.patch(
    ctx.info.namespace,
    name,
    (current) => {
      const patched = apply(current);
      // The patched object gets the same checks as a PUT body, without duplicate-key information;
      // an integer of the patch a double changed is refused wherever the patch put it.
      const checked = checkObject(ctx, { value: patched, duplicates: [], duplicateCount: 0, inexactIntegers });
      if (checked.metadata.name !== current.metadata.name) throw new StatusError(400, 'BadRequest', 'a patch may not change metadata.name');
      return checked;
    },
    { ...opts, ...(subresource ? { subresource } : {}) },
  );
  for (const w of result.warnings) ctx.out.warn(w);
  sendObject(ctx, 200, result.object);
}

/** Reads and checks an applied configuration: YAML (or JSON), an object, named as the URL says. */
async function readApplied(ctx: RequestContext): Promise<KObject> {
  const bytes = await readBody(ctx.body, ctx.bodyTimeoutMs);
  if (bytes.length === 0) throw badRequest('the request body is empty: an applied configuration is required');
  const decoded = decodeYaml(bytes);
  const value = decoded.value;
  auditRequestPatch(ctx.headers, value);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw badRequest('the applied configuration must be a YAML or JSON object');
  const meta = (value as { metadata?: unknown }).metadata;
  if (typeof meta === 'object' && meta !== null && 'managedFields' in meta && (meta as { managedFields?: unknown }).managedFields != null) {
    throw badRequest('metadata.managedFields must be nil');
  }
  const applied = checkObject(ctx, decoded, true);
  const name = ctx.info.name ?? '';
  const bodyName = applied.metadata.name;
  if (bodyName === undefined || bodyName === '') applied.metadata.name = name;
  else if (bodyName !== name) throw badRequest(`the name of the object (${bodyName}) does not match the name on the URL (${name})`);
  if (applied.metadata.generateName !== undefined) throw badRequest('metadata.generateName: Invalid value: generateName is not allowed in an applied configuration');
  return applied;
}

/** Server-side apply (SPEC "Server-side apply rules"): 200 when it updated, 201 when it created. */
async function handleApply(ctx: RequestContext, opts: WriteRequestOptions, force: boolean): Promise<void> {
  if (ctx.info.subresource === 'scale') throw unsupportedMediaType(applyType, customPatchTypes.filter((t) => t !== applyType));
  const applied = await readApplied(ctx);
  const subresource = writtenSubresource(ctx);
  const result = await serverSideApply(ctx.store, ctx.info.namespace, ctx.info.name ?? '', {
    applied,
    // Never the User-Agent's: checkWriteOptions made `fieldManager` required for apply.
    manager: opts.fieldManager,
    force,
    dryRun: opts.dryRun,
    user: opts.user,
    ...(subresource === undefined ? {} : { subresource }),
    ...(opts.admission === undefined ? {} : { admission: opts.admission }),
    beforeCreate: opts.authorizeCreate,
  });
  for (const w of result.warnings) ctx.out.warn(w);
  sendObject(ctx, result.created ? 201 : 200, result.object);
}
