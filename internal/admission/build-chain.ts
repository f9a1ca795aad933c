// Builds the admission chain a replica runs from the selected plugin names, each plugin's
// configuration (from --admission-control-config-file) and the catalogue of compiled-in plugins.
import { AdmissionChain } from './chain.ts';
import type { AdmissionDeps, PluginFactory } from './plugin.ts';
import { pendingPlugins } from './plugin-catalogue.ts';

/** A plugin named in the flags with no compiled-in factory (a bug in the catalogue). */
export class UnknownPluginError extends Error {}

/**
 * The chain of `names` (already in kube's order), each plugin made by its factory with its
 * configuration. A factory refusing its configuration throws, naming the plugin.
 */
export function buildAdmissionChain(names: readonly string[], configurations: ReadonlyMap<string, unknown>, deps: AdmissionDeps, catalogue: ReadonlyMap<string, PluginFactory>): AdmissionChain {
  const built = names.filter((name) => {
    const why = pendingPlugins.get(name);
    if (why !== undefined) deps.log(`plugin ${name} is enabled but not built: ${why}`);
    return why === undefined;
  });
  const plugins = built.map((name) => {
    const factory = catalogue.get(name);
    if (factory === undefined) throw new UnknownPluginError(`admission plugin "${name}" is not compiled in`);
    try {
      return factory(deps, configurations.get(name));
    } catch (err) {
      throw new Error(`admission plugin "${name}": ${err instanceof Error ? err.message : String(err)}`, { cause: err });
    }
  });
  return new AdmissionChain(plugins);
}
