// Reading a request's namespace the way kube's namespace plugins do: this replica's state first
// (their informer cache), then a linearizable read before a refusal, so a lagging replica never
// refuses a namespace that exists. Shared by NamespaceLifecycle, NamespaceExists and
// NamespaceAutoProvision.
import type { KObject } from '../../../registry/schema/declaration.ts';
import { internalError, StatusError } from '../../../registry/errors/status-error.ts';
import type { GroupResourceName, ObjectReader } from '../../plugin.ts';

/** The core namespaces resource. */
export const namespacesResource: GroupResourceName = { group: '', resource: 'namespaces' };

/**
 * The namespace `name` (undefined when there is none), read from this replica or, with
 * `consistent`, at the leader. A failed read is a 500 (kube's NewInternalError) unless it is
 * already an API error (a 503 while there is no leader stays a 503).
 */
export async function readNamespace(objects: ObjectReader, name: string, consistent: boolean): Promise<KObject | undefined> {
  try {
    return await objects.get(namespacesResource, undefined, name, consistent ? { consistent: true } : undefined);
  } catch (err) {
    if (err instanceof StatusError) throw err;
    throw internalError(err instanceof Error ? err.message : String(err));
  }
}

/** Whether the request's kind is Namespace (kube compares the group and kind, not the version). */
export function isNamespaceKind(kind: { readonly group: string; readonly kind: string }): boolean {
  return kind.group === '' && kind.kind === 'Namespace';
}
