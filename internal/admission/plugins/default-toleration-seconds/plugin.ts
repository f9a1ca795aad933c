// DefaultTolerationSeconds (plugin/pkg/admission/defaulttolerationseconds): every pod tolerates a
// node's not-ready and unreachable NoExecute taints for a while (300 s by default) unless it says
// otherwise, so a brief node outage does not evict it at once.
import type { AdmissionPlugin, PluginFactory } from '../../plugin.ts';
import { parseDefaultTolerationSecondsConfiguration } from './configuration.ts';

/** The plugin's name, as kube-apiserver registers it. */
export const defaultTolerationSecondsPluginName = 'DefaultTolerationSeconds';

/** The taints the node lifecycle controller puts on a node that is not ready or unreachable. */
export const notReadyTaintKey = 'node.kubernetes.io/not-ready';
export const unreachableTaintKey = 'node.kubernetes.io/unreachable';

/** Whether a toleration already covers `key`'s NoExecute taint (an empty key or effect matches all). */
function covers(toleration: unknown, key: string): boolean {
  if (typeof toleration !== 'object' || toleration === null) return false;
  const t = toleration as { key?: unknown; effect?: unknown };
  const tKey = typeof t.key === 'string' ? t.key : '';
  const tEffect = typeof t.effect === 'string' ? t.effect : '';
  return (tKey === key || tKey === '') && (tEffect === 'NoExecute' || tEffect === '');
}

/** Makes the plugin; `configuration` is `{ notReadySeconds, unreachableSeconds }` (see configuration.ts). */
export const defaultTolerationSecondsPlugin: PluginFactory = (_deps, configuration) => {
  const settings = parseDefaultTolerationSecondsConfiguration(configuration);
  const plugin: AdmissionPlugin = {
    name: defaultTolerationSecondsPluginName,
    handles: (operation) => operation === 'CREATE' || operation === 'UPDATE',
    async admit(attributes) {
      const { group, resource } = attributes.resource;
      if (group !== '' || resource !== 'pods' || attributes.subresource !== '' || attributes.object === undefined) return;
      const pod = attributes.object;
      const spec = (typeof pod.spec === 'object' && pod.spec !== null ? pod.spec : (pod.spec = {})) as Record<string, unknown>;
      const tolerations: unknown[] = Array.isArray(spec.tolerations) ? spec.tolerations : [];
      const additions = [
        { key: notReadyTaintKey, seconds: settings.notReadySeconds },
        { key: unreachableTaintKey, seconds: settings.unreachableSeconds },
      ].filter(({ key }) => !tolerations.some((t) => covers(t, key)));
      if (additions.length === 0) return;
      for (const { key, seconds } of additions) tolerations.push({ key, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: seconds });
      spec.tolerations = tolerations;
    },
  };
  return plugin;
};
