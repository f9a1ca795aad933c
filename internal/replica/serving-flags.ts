// `--runtime-config` and `--feature-gates`, as kube-apiserver 1.28 reads them: which API group
// versions beyond the defaults are served, and which gated features are on. A group version no
// server has, or a malformed entry, stops the replica at start.
import { builtinDeclarations, type ServingOptions } from '../registry/resource-registry.ts';
import { servedGroup } from '../registry/served-resource.ts';
import { parseFeatureGates, parseRuntimeConfig } from '../registry/runtime-config.ts';

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

/** Validates the flags; throws `makeError(message)` naming what is wrong. */
export function parseServingFlags(values: ServingFlagValues, apiDomain: string, makeError: (message: string) => Error): ServingOptions {
  let options: { runtimeConfig?: ServingOptions['runtimeConfig']; featureGates?: ServingOptions['featureGates'] } = {};
  try {
    if (values['runtime-config'] !== undefined) options = { ...options, runtimeConfig: parseRuntimeConfig(values['runtime-config']) };
    if (values['feature-gates'] !== undefined) options = { ...options, featureGates: parseFeatureGates(values['feature-gates']) };
  } catch (err) {
    throw makeError(`--${values['runtime-config'] !== undefined && !(err instanceof Error && err.message.startsWith('missing bool')) ? 'runtime-config' : 'feature-gates'}: ${err instanceof Error ? err.message : String(err)}`);
  }
  const known = new Set(builtinDeclarations.map((d) => {
    const group = servedGroup(d, apiDomain);
    return group === '' ? d.version : `${group}/${d.version}`;
  }));
  const unknown = (options.runtimeConfig?.groupVersions ?? []).filter((gv) => !known.has(gv));
  if (unknown.length > 0) throw makeError(`--runtime-config: unknown api groups ${unknown.join(',')}`);
  for (const gate of options.featureGates?.keys() ?? []) if (!knownGates.has(gate)) throw makeError(`--feature-gates: unrecognized feature gate: ${gate}`);
  return options;
}
