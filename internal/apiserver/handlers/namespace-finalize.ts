import { admitAsIs } from '../../registry/generic/write-admission.ts';
import { finalizeNamespace } from '../../registry/core/namespace-deletion.ts';
import { badRequest, invalid } from '../../registry/errors/status-error.ts';
import { validateFinalizerName } from '../../registry/core/finalizer-names.ts';
import { toCauses } from '../../registry/schema/field-errors.ts';
import { readObject } from './decode-object.ts';
import { sendObject } from './read.ts';
import type { RequestContext } from './request-context.ts';
import { writeOptions } from './write.ts';

function finalizersOf(ctx: RequestContext, spec: unknown): string[] {
  const value = (spec as { finalizers?: unknown } | undefined)?.finalizers;
  if (value === undefined || value === null) return [];
  const name = ctx.info.name ?? '';
  if (!Array.isArray(value)) throw invalid('Namespace', '', name, [{ reason: 'FieldValueInvalid', field: 'spec.finalizers', message: 'must be a list of strings' }]);
  const causes = toCauses(value.flatMap((f, i) => validateFinalizerName(f, `spec.finalizers[${i}]`)));
  if (causes.length > 0) throw invalid('Namespace', '', name, causes);
  return value as string[];
}

/**
 * PUT /api/v1/namespaces/{name}/finalize: replaces spec.finalizers only (the way the namespace
 * controller, or an operator, lets a terminating namespace go); a terminating namespace left
 * without finalizers is removed. 409 when the body's resourceVersion is stale.
 */
export async function handleFinalize(ctx: RequestContext): Promise<void> {
  const { dryRun } = writeOptions(ctx);
  const obj = await readObject(ctx);
  const name = ctx.info.name ?? '';
  if (obj.metadata.name !== undefined && obj.metadata.name !== '' && obj.metadata.name !== name) throw badRequest(`the name of the object (${obj.metadata.name}) does not match the name on the URL (${name})`);
  let finalizers = finalizersOf(ctx, obj.spec);
  const requested = obj.metadata.resourceVersion;
  if (ctx.admission !== undefined) {
    // Admitted as an update of namespaces/finalize: the namespace as it would be written, and as stored.
    const current = await ctx.store.get(undefined, name);
    const next = { ...current, spec: { ...(current.spec as object | undefined), finalizers } };
    const admitted = (await admitAsIs(ctx.admission, 'UPDATE', next, current)) ?? next;
    finalizers = finalizersOf(ctx, admitted.spec);
  }
  if (dryRun) {
    const current = await ctx.store.get(undefined, name);
    current.spec = { ...(current.spec as object | undefined), finalizers };
    sendObject(ctx, 200, current);
    return;
  }
  const result = await finalizeNamespace(ctx.store, name, () => finalizers, requested === '' ? undefined : requested);
  sendObject(ctx, 200, result.object);
}
