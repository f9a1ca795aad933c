// SetDefaults_CustomResourceDefinitionSpec of apiextensions.k8s.io/v1 (kube 1.28): the singular
// name is the kind in lower case, the list kind is the kind plus "List", conversion is "None" when
// unset, and a conversion webhook's service listens on 443. status.storedVersions is the server's
// (set when the CRD is written), not a default here.
import type { KObject } from '../schema/declaration.ts';
import { isObject } from './schema/schema-props.ts';

/** Applies kube's v1 defaults to a CRD in place. */
export function defaultCrd(crd: KObject): void {
  if (!isObject(crd.spec)) return;
  const spec = crd.spec;
  if (!isObject(spec.names)) spec.names = {};
  const names = spec.names as Record<string, unknown>;
  const kind = typeof names.kind === 'string' ? names.kind : '';
  if (typeof names.singular !== 'string' || names.singular === '') names.singular = kind.toLowerCase();
  if ((typeof names.listKind !== 'string' || names.listKind === '') && kind !== '') names.listKind = `${kind}List`;
  if (!isObject(spec.conversion)) spec.conversion = { strategy: 'None' };
  const webhook = (spec.conversion as Record<string, unknown>).webhook;
  const clientConfig = isObject(webhook) ? webhook.clientConfig : undefined;
  const service = isObject(clientConfig) ? clientConfig.service : undefined;
  if (isObject(service) && (service.port === undefined || service.port === null)) service.port = 443;
}
