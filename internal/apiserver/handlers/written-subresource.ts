import type { RequestContext } from './request-context.ts';

/**
 * The sub-resource a write through this request changes, for the store: `status`, or a view
 * sub-resource's name (pods/ephemeralcontainers); undefined for the object itself.
 */
export function writtenSubresource(ctx: RequestContext): string | undefined {
  const sub = ctx.info.subresource;
  if (sub === 'status') return sub;
  return sub !== undefined && ctx.served.decl.subresources?.more?.[sub]?.view !== undefined ? sub : undefined;
}
