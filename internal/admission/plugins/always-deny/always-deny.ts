// AlwaysDeny (deprecated upstream): refuses every request in both phases, as kube's does; useful
// in tests that need a write to be forbidden.
import { admissionForbidden } from '../../forbidden.ts';
import type { AdmissionAttributes } from '../../attributes.ts';
import type { AdmissionPlugin, PluginFactory } from '../../plugin.ts';

/** The plugin's name as kube-apiserver registers it. */
export const alwaysDenyName = 'AlwaysDeny';

/** kube's refusal text. */
export const alwaysDenyReason = 'admission control is denying all modifications';

async function deny(attributes: AdmissionAttributes): Promise<void> {
  throw admissionForbidden(attributes, alwaysDenyReason);
}

/** Makes AlwaysDeny; takes no configuration. */
export const alwaysDenyPlugin: PluginFactory = (deps) => {
  deps.log(`${alwaysDenyName} admission controller is deprecated. Please remove this controller from your configuration files and scripts.`);
  const plugin: AdmissionPlugin = { name: alwaysDenyName, handles: () => true, admit: deny, validate: deny };
  return plugin;
};
