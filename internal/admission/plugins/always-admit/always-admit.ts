// AlwaysAdmit (deprecated upstream): lets every request through in both phases. Kept for
// configurations that name it; it changes nothing.
import type { AdmissionPlugin, PluginFactory } from '../../plugin.ts';

/** The plugin's name as kube-apiserver registers it. */
export const alwaysAdmitName = 'AlwaysAdmit';

/** Makes AlwaysAdmit; takes no configuration. */
export const alwaysAdmitPlugin: PluginFactory = (deps) => {
  deps.log(`${alwaysAdmitName} admission controller is deprecated. Please remove this controller from your configuration files and scripts.`);
  const plugin: AdmissionPlugin = {
    name: alwaysAdmitName,
    handles: () => true,
    admit: async () => {},
    validate: async () => {},
  };
  return plugin;
};
