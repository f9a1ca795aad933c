import { auditRequestObject } from '../../audit/auditor.ts';
import { badRequest } from '../../registry/errors/status-error.ts';
import { scaleOf, writeScale } from '../../registry/generic/scale.ts';
import type { KObject } from '../../registry/schema/declaration.ts';
import { readDecodedBody } from './decode-object.ts';
import type { RequestContext } from './request-context.ts';
import { writeOptions } from './write.ts';

/** GET of a workload's Scale. */
export async function handleGetScale(ctx: RequestContext): Promise<void> {
  const obj = await ctx.store.get(ctx.info.namespace, ctx.info.name ?? '', ctx.query.get('resourceVersion') ?? undefined);
  ctx.out.send(200, scaleOf(obj, ctx.served.decl.subresources?.scale));
}

/** PUT of a workload's Scale: only spec.replicas changes. */
export async function handleUpdateScale(ctx: RequestContext): Promise<void> {
  const opts = writeOptions(ctx);
  const { value } = await readDecodedBody(ctx);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw badRequest('the request body must be a Scale object');
  const scale = value as KObject;
  auditRequestObject(ctx.headers, scale);
  if (scale.kind !== undefined && scale.kind !== 'Scale') throw badRequest(`the kind in the data (${String(scale.kind)}) does not match the expected kind (Scale)`);
  if (typeof scale.metadata !== 'object' || scale.metadata === null) scale.metadata = {};
  const name = ctx.info.name ?? '';
  if (scale.metadata.name !== undefined && scale.metadata.name !== name) throw badRequest(`the name of the object (${String(scale.metadata.name)}) does not match the name on the URL (${name})`);
  const result = await writeScale(ctx.store, ctx.info.namespace, name, () => scale, opts);
  ctx.out.send(200, result);
}
