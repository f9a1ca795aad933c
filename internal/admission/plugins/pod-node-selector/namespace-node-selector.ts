// The node selector a namespace imposes: its `scheduler.alpha.kubernetes.io/node-selector`
// annotation when it has one, else the cluster default. The namespace is read from this
// replica's state first and, when missing there, once more at the leader (kube's lister, then
// live GET); a namespace missing at both is kube's internal error.
import type { AdmissionDeps } from '../../plugin.ts';
import { StatusError, internalError } from '../../../registry/errors/status-error.ts';
import type { KObject } from '../../../registry/schema/declaration.ts';
import { parseLabelSet } from './label-set.ts';
import type { LabelSet } from './label-set.ts';

/** The namespace annotation holding a node selector. */
export const nodeSelectorAnnotation = 'scheduler.alpha.kubernetes.io/node-selector';

const namespaces = { group: '', resource: 'namespaces' } as const;

/** A failure kube returns as a plain error (HTTP 500, no reason): the message is all there is. */
export function plainError(message: string): StatusError {
  return new StatusError(500, '', message);
}

async function readNamespace(deps: AdmissionDeps, name: string): Promise<KObject> {
  try {
    const cached = await deps.objects.get(namespaces, undefined, name);
    if (cached !== undefined) return cached;
    const live = await deps.objects.get(namespaces, undefined, name, { consistent: true });
    if (live !== undefined) return live;
  } catch (error) {
    throw internalError(error instanceof Error ? error.message : String(error));
  }
  throw internalError(`namespace ${name} does not exist`);
}

/** The selector pods of `namespace` get; throws a StatusError when it cannot be known. */
export async function namespaceNodeSelector(deps: AdmissionDeps, namespace: string, clusterDefault: LabelSet): Promise<LabelSet> {
  const object = await readNamespace(deps, namespace);
  const annotation = object.metadata.annotations?.[nodeSelectorAnnotation];
  if (annotation === undefined) return clusterDefault;
  try {
    return parseLabelSet(annotation);
  } catch (error) {
    throw plainError((error as Error).message);
  }
}
