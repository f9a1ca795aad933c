// The params a binding evaluates its policy with (kube's collectParams): none when the policy has
// no paramKind or the binding no paramRef (one evaluation with params null); else the object its
// name names or the objects its selector selects, in the paramRef's namespace or the request's;
// none found is a configuration error under parameterNotFoundAction Deny, nothing to evaluate
// under Allow. Params are read from this replica's state, as kube reads its param informer.
import type { ServedResource, ServedResources } from '../../registry/served-resource.ts';
import type { KObject } from '../../registry/schema/declaration.ts';
import { labelSelectorMatches } from '../../registry/schema/label-selectors.ts';
import type { ObjectReader } from '../plugin.ts';
import { paramsPerBindingMax } from './limits.ts';
import type { ParamKind, ParamRef } from './policy-types.ts';

/** What finding params reads. */
export interface ParamsDeps {
  readonly registry: ServedResources;
  readonly objects: ObjectReader;
}

/** `group/version, Kind=kind` as Go prints a GroupVersionKind (`/v1, Kind=ConfigMap` for core). */
export function paramKindText(paramKind: ParamKind): string {
  const apiVersion = paramKind.apiVersion ?? '';
  const slash = apiVersion.indexOf('/');
  const group = slash < 0 ? '' : apiVersion.slice(0, slash);
  const version = slash < 0 ? apiVersion : apiVersion.slice(slash + 1);
  return `${group}/${version}, Kind=${paramKind.kind ?? ''}`;
}

/** The served resource of a paramKind, or undefined when nothing serves it (a policy-level configuration error). */
export function paramResource(paramKind: ParamKind, registry: ServedResources): ServedResource | undefined {
  return registry.resources.find((r) => r.apiVersion === paramKind.apiVersion && r.decl.kind === paramKind.kind);
}

/**
 * The params to evaluate with: `[null]` when the policy or binding does not use params; the
 * objects found otherwise (possibly none). An Error is a configuration error for the failure policy.
 */
export async function collectParams(paramKind: ParamKind | null | undefined, paramRef: ParamRef | null | undefined, requestNamespace: string, deps: ParamsDeps): Promise<readonly (KObject | null)[] | Error> {
  // null is absent (kube decodes a JSON null as a nil pointer).
  if (paramKind === undefined || paramKind === null || paramRef === undefined || paramRef === null) return [null];
  const served = paramResource(paramKind, deps.registry);
  if (served === undefined) return new Error(`paramKind kind \`${paramKindText(paramKind)}\` not known`);
  const refNamespace = paramRef.namespace ?? '';
  let namespace: string | undefined;
  if (served.decl.namespaced) {
    namespace = refNamespace !== '' ? refNamespace : requestNamespace;
    if (namespace === '') return new Error('cannot use namespaced paramRef in policy binding that matches cluster-scoped resources');
  } else if (refNamespace !== '') {
    return new Error('paramRef.namespace must not be provided for a cluster-scoped `paramKind`');
  }
  const gr = { group: served.group, resource: served.decl.plural };
  let params: KObject[];
  const name = paramRef.name ?? '';
  if (name !== '') {
    if (paramRef.selector !== undefined && paramRef.selector !== null) return new Error('paramRef.name and paramRef.selector are mutually exclusive');
    const found = await deps.objects.get(gr, namespace, name);
    params = found === undefined ? [] : [found];
  } else if (paramRef.selector !== undefined && paramRef.selector !== null) {
    params = (await deps.objects.list(gr, namespace)).filter((o) => labelSelectorMatches(paramRef.selector, o.metadata.labels));
    if (params.length > paramsPerBindingMax) return new Error(`paramRef.selector selects ${params.length} params, more than the ${paramsPerBindingMax} one binding may use`);
  } else {
    return new Error('one of name or selector must be provided');
  }
  if (params.length === 0 && paramRef.parameterNotFoundAction === 'Deny') return new Error('no params found for policy binding with `Deny` parameterNotFoundAction');
  return params;
}
