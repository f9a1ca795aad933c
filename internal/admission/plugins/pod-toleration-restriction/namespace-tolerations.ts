// A namespace's toleration annotations: `scheduler.alpha.kubernetes.io/defaultTolerations` and
// `.../tolerationsWhitelist` hold JSON lists of tolerations. An absent annotation is "not set"
// (undefined: the cluster configuration applies); an empty one is an empty list. The namespace
// is read from this replica first and then at the leader, as kube's lister then live GET.
import type { AdmissionDeps } from '../../plugin.ts';
import { StatusError, internalError, notFound } from '../../../registry/errors/status-error.ts';
import type { KObject } from '../../../registry/schema/declaration.ts';
import type { Toleration } from './tolerations.ts';

/** The namespace annotation with the tolerations its pods get by default. */
export const defaultTolerationsAnnotation = 'scheduler.alpha.kubernetes.io/defaultTolerations';
/** The namespace annotation with the tolerations its pods may have. */
export const tolerationsWhitelistAnnotation = 'scheduler.alpha.kubernetes.io/tolerationsWhitelist';

const namespaces = { group: '', resource: 'namespaces' } as const;

/** A failure kube returns as a plain Go error: HTTP 500 with no reason, the message as is. */
export function plainError(message: string): StatusError {
  return new StatusError(500, '', message);
}

async function readNamespace(deps: AdmissionDeps, name: string): Promise<KObject> {
  let found: KObject | undefined;
  try {
    found = (await deps.objects.get(namespaces, undefined, name)) ?? (await deps.objects.get(namespaces, undefined, name, { consistent: true }));
  } catch (error) {
    throw internalError(error instanceof Error ? error.message : String(error));
  }
  if (found === undefined) throw notFound(namespaces, name);
  return found;
}

function parseTolerations(text: string): Toleration[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw plainError((error as Error).message);
  }
  if (parsed === null) return [];
  if (!Array.isArray(parsed) || !parsed.every((t) => typeof t === 'object' && t !== null && !Array.isArray(t))) {
    throw plainError('json: cannot unmarshal the annotation into Go value of type []v1.Toleration');
  }
  return parsed as Toleration[];
}

/** The tolerations the namespace's `annotation` lists, or undefined when it does not have it. */
export async function namespaceTolerations(deps: AdmissionDeps, namespace: string, annotation: string): Promise<Toleration[] | undefined> {
  const value = (await readNamespace(deps, namespace)).metadata.annotations?.[annotation];
  if (value === undefined) return undefined;
  if (value === '') return [];
  return parseTolerations(value);
}
