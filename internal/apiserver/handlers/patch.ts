import { StatusError } from '../../registry/errors/status-error.ts';
import { applyJsonPatch } from '../../registry/generic/json-patch.ts';
import { applyMergePatch } from '../../registry/generic/merge-patch.ts';
import { applyStrategicMergePatch } from '../../registry/generic/strategic-merge-patch.ts';
import { writeScale } from '../../registry/generic/scale.ts';
import type { KObject } from '../../registry/schema/declaration.ts';
import { decodeJson, readBody } from '../body.ts';
import { mediaType, unsupportedMediaType } from '../negotiation.ts';
import { checkObject } from './decode-object.ts';
import { sendObject } from './read.ts';
import type { RequestContext } from './request-context.ts';
import { writeOptions } from './write.ts';

const patchTypes = ['application/json-patch+json', 'application/merge-patch+json', 'application/strategic-merge-patch+json'];

/** Turns the patch document into a function from the current object to the patched one. */
function patcher(type: string, patch: unknown): (current: unknown) => unknown {
  if (type === 'application/json-patch+json') return (current) => applyJsonPatch(current, patch);
  if (typeof patch !== 'object' || patch === null || Array.isArray(patch)) throw new StatusError(400, 'BadRequest', 'a merge patch must be a JSON object');
  if (type === 'application/strategic-merge-patch+json') return (current) => applyStrategicMergePatch(current, patch);
  return (current) => applyMergePatch(current, patch);
}

/** PATCH of one object, its status or its scale. */
export async function handlePatch(ctx: RequestContext): Promise<void> {
  const type = mediaType(ctx.headers['content-type']);
  if (type === 'application/apply-patch+yaml') throw unsupportedMediaType(type, patchTypes);
  if (!patchTypes.includes(type)) throw unsupportedMediaType(type, patchTypes);
  const opts = writeOptions(ctx);
  const bytes = await readBody(ctx.body);
  const apply = patcher(type, decodeJson(bytes).value);
  const name = ctx.info.name ?? '';
  if (ctx.info.subresource === 'scale') {
    const scale = await writeScale(ctx.store, ctx.info.namespace, name, (s) => apply(s) as KObject, opts);
    ctx.out.send(200, scale);
    return;
  }
  const subresource = ctx.info.subresource === 'status' ? ('status' as const) : undefined;
  const result = await ctx.store.patch(
    ctx.info.namespace,
    name,
    (current) => {
      const patched = apply(current);
      // The patched object gets the same checks as a PUT body, without duplicate-key information.
      const checked = checkObject(ctx, { value: patched, duplicates: [] });
      if (checked.metadata.name !== current.metadata.name) throw new StatusError(400, 'BadRequest', 'a patch may not change metadata.name');
      return checked;
    },
    { ...opts, ...(subresource ? { subresource } : {}) },
  );
  for (const w of result.warnings) ctx.out.warn(w);
  sendObject(ctx, 200, result.object);
}
