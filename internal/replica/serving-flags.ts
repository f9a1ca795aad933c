// `--runtime-config` and `--feature-gates`, as kube-apiserver 1.28 reads them: which API group
// versions beyond the defaults are served, and which gated features are on. A group version no
// server has, or a malformed entry, stops the replica at start.
import { builtinDeclarations, type ServingOptions } from '../registry/resource-registry.ts';
import { servedGroup } from '../registry/served-resource.ts';
import { parseFeatureGates, parseRuntimeConfig } from '../registry/runtime-config.ts';
import { removalText, removedKindsOf } from '../registry/removed-versions.ts';

/** The parseArgs options of the serving flags. */
export const servingFlagOptions = {
  'runtime-config': { type: 'string' },
  'feature-gates': { type: 'string' },
} as const;

/** The values parseArgs gives for them. */
export interface ServingFlagValues {
  readonly 'runtime-config'?: string | undefined;
  readonly 'feature-gates'?: string | undefined;
}

/** The feature gates kube-apiserver 1.28 knows that orch acts on. */
const knownGates: ReadonlySet<string> = new Set(['ValidatingAdmissionPolicy']);

/**
 * What is wrong with the group versions `--runtime-config` names, in kube's words: groups no
 * server has ("unknown api groups"), then versions a known group lacks; a version kube no longer
 * serves says what replaced it (kube would take the key and serve nothing).
 */
function unknownGroupVersion(groupVersions: readonly string[], apiDomain: string): string | undefined {
  const known = new Set(builtinDeclarations.map((d) => {
    const group = servedGroup(d, apiDomain);
    return group === '' ? d.version : `${group}/${d.version}`;
  }));
  const split = (gv: string): [string, string] => {
    const slash = gv.lastIndexOf('/');
    return slash < 0 ? ['', gv] : [gv.slice(0, slash), gv.slice(slash + 1)];
  };
  const groups = new Set([...known].map((gv) => split(gv)[0]));
  const unknownGroups = [...new Set(groupVersions.map((gv) => split(gv)[0]).filter((g) => !groups.has(g)))];
  if (unknownGroups.length > 0) return `unknown api groups ${unknownGroups.join(',')}`;
  const missing = groupVersions.find((gv) => !known.has(gv));
  if (missing === undefined) return undefined;
  const [group, version] = split(missing);
  const removed = removedKindsOf(apiDomain, group, version).map((r) => removalText(r, apiDomain));
  return `group version ${missing} that has not been registered${removed.length > 0 ? ` (${removed.join('; ')})` : ''}`;
}

/**
 * The resources orch cannot run without: its authorization and bootstrap policy live in the RBAC
 * kinds and every namespaced object in a namespace. kube-apiserver serves on with them off (its
 * authorizers can do without); orch refuses the flag instead of failing later.
 */
const indispensable: readonly { readonly group: string; readonly resource: string }[] = [
  { group: '', resource: 'namespaces' },
  ...['roles', 'rolebindings', 'clusterroles', 'clusterrolebindings'].map((resource) => ({ group: 'rbac.authorization', resource })),
];

/** What the flag turns off that orch cannot run without, named; undefined when nothing. */
function indispensableTurnedOff(runtimeConfig: NonNullable<ServingOptions['runtimeConfig']>, apiDomain: string): string | undefined {
  for (const r of indispensable) {
    const group = r.group === '' ? '' : `${r.group}.${apiDomain}`;
    if (runtimeConfig.served(group, 'v1', r.resource, 'ga') !== false) continue;
    return `${group === '' ? '' : `${group}/`}v1/${r.resource} cannot be turned off: orch keeps its authorization policy in the RBAC kinds, and every namespaced object needs its namespace`;
  }
  return undefined;
}

/** Validates the flags; throws `makeError(message)` naming what is wrong. */
export function parseServingFlags(values: ServingFlagValues, apiDomain: string, makeError: (message: string) => Error): ServingOptions {
  let options: { runtimeConfig?: ServingOptions['runtimeConfig']; featureGates?: ServingOptions['featureGates'] } = {};
  try {
    if (values['runtime-config'] !== undefined) options = { ...options, runtimeConfig: parseRuntimeConfig(values['runtime-config']) };
    if (values['feature-gates'] !== undefined) options = { ...options, featureGates: parseFeatureGates(values['feature-gates']) };
  } catch (err) {
    throw makeError(`--${values['runtime-config'] !== undefined && !(err instanceof Error && err.message.startsWith('missing bool')) ? 'runtime-config' : 'feature-gates'}: ${err instanceof Error ? err.message : String(err)}`);
  }
  const unknown = unknownGroupVersion(options.runtimeConfig?.groupVersions ?? [], apiDomain);
  if (unknown !== undefined) throw makeError(`--runtime-config: ${unknown}`);
  const needed = options.runtimeConfig === undefined ? undefined : indispensableTurnedOff(options.runtimeConfig, apiDomain);
  if (needed !== undefined) throw makeError(`--runtime-config: ${needed}`);
  for (const gate of options.featureGates?.keys() ?? []) if (!knownGates.has(gate)) throw makeError(`--feature-gates: unrecognized feature gate: ${gate}`);
  return options;
}
