// What every NodeRestriction rule is given: the request, the node it comes from, the readers
// behind it, and the refusal worded as kube's admission.NewForbidden.
import type { AdmissionAttributes } from '../../attributes.ts';
import { admissionForbidden } from '../../forbidden.ts';
import type { AdmissionDeps } from '../../plugin.ts';
import { notFound } from '../../../registry/errors/status-error.ts';
import type { StatusError } from '../../../registry/errors/status-error.ts';
import type { KObject } from '../../../registry/schema/declaration.ts';

/** One request from a node. */
export interface NodeRequest {
  readonly attributes: AdmissionAttributes;
  readonly nodeName: string;
  readonly deps: AdmissionDeps;
}

/** A 403 for this request with `reason`. */
export function forbid(request: NodeRequest, reason: string): StatusError {
  return admissionForbidden(request.attributes, reason);
}

/**
 * Reads an object as kube's listers do: this replica's state. Missing, it is the lister's 404
 * (`pod "x" not found`, singular as the lister names it); a read that fails is a 403 naming the
 * failure, as kube wraps lister errors.
 */
export async function readOrRefuse(request: NodeRequest, resource: 'pods' | 'nodes', namespace: string | undefined, name: string): Promise<KObject> {
  let found: KObject | undefined;
  try {
    found = await request.deps.objects.get({ group: '', resource }, namespace, name);
  } catch (error) {
    throw forbid(request, error instanceof Error ? error.message : String(error));
  }
  if (found === undefined) throw notFound({ group: '', resource: resource === 'pods' ? 'pod' : 'node' }, name);
  return found;
}

/** A field of a JSON mapping, or undefined. */
export function field(value: unknown, name: string): unknown {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>)[name] : undefined;
}

/** A string field, '' when absent or not a string. */
export function text(value: unknown, name: string): string {
  const found = field(value, name);
  return typeof found === 'string' ? found : '';
}
