// The two label selectors of a webhook (kube's predicates/namespace and predicates/object): the
// namespaceSelector against the labels of the request's namespace, the objectSelector against the
// object's or the old object's labels. A failure to read the namespace is returned, not thrown:
// kube reports it only when the webhook's rules match.
import { notFound, StatusError } from '../../registry/errors/status-error.ts';
import type { KObject } from '../../registry/schema/declaration.ts';
import { isEmptySelector, labelSelectorMatches } from '../../registry/schema/label-selectors.ts';
import type { AdmissionAttributes } from '../attributes.ts';
import type { ObjectReader } from '../plugin.ts';
import type { WebhookSpec } from './webhook-types.ts';

const namespacesResource = { group: '', resource: 'namespaces' };

function labelsOf(obj: KObject | undefined): Record<string, string> | undefined {
  return obj?.metadata?.labels;
}

/** The namespace's labels, from this replica's state, else from the leader (kube asks the live store on a cache miss). */
async function namespaceLabels(attributes: AdmissionAttributes, objects: ObjectReader): Promise<Record<string, string> | StatusError> {
  const { resource, subresource, operation } = attributes;
  // A namespace being created or updated is not stored yet: its own labels decide.
  if (resource.resource === 'namespaces' && subresource === '' && (operation === 'CREATE' || operation === 'UPDATE')) return labelsOf(attributes.object) ?? {};
  const name = attributes.namespace !== '' ? attributes.namespace : attributes.name;
  try {
    const namespace = (await objects.get(namespacesResource, undefined, name)) ?? (await objects.get(namespacesResource, undefined, name, { consistent: true }));
    return namespace === undefined ? notFound(namespacesResource, name) : (labelsOf(namespace) ?? {});
  } catch (err) {
    return err instanceof StatusError ? err : new StatusError(500, 'InternalError', `Internal error occurred: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/**
 * Whether the request's namespace passes the namespaceSelector: always for cluster-scoped objects
 * other than Namespaces; a StatusError when the namespace cannot be read.
 */
export async function matchNamespaceSelector(spec: WebhookSpec, attributes: AdmissionAttributes, objects: ObjectReader): Promise<boolean | StatusError> {
  if (attributes.namespace === '' && attributes.resource.resource !== 'namespaces') return true;
  const selector = spec.namespaceSelector;
  // An empty selector takes every namespace without reading it; an absent one (never stored: defaulting sets {}) takes none.
  if (selector !== undefined && selector !== null && isEmptySelector(selector)) return true;
  const labels = await namespaceLabels(attributes, objects);
  if (labels instanceof StatusError) return labels;
  return labelSelectorMatches(selector, labels);
}

/** Whether the object or the old object passes the objectSelector (an empty selector passes everything). */
export function matchObjectSelector(spec: WebhookSpec, attributes: AdmissionAttributes): boolean {
  const selector = spec.objectSelector;
  if (selector !== undefined && selector !== null && isEmptySelector(selector)) return true;
  const matches = (obj: KObject | undefined): boolean => obj !== undefined && labelSelectorMatches(selector, labelsOf(obj));
  return matches(attributes.object) || matches(attributes.oldObject);
}
