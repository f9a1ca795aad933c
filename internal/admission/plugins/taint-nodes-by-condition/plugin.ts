// TaintNodesByCondition (plugin/pkg/admission/nodetaint): a new Node starts tainted not-ready
// (NoSchedule), so nothing is scheduled onto it before the node lifecycle controller has seen it
// report Ready and removed the taint.
import type { AdmissionPlugin, PluginFactory } from '../../plugin.ts';

/** The plugin's name, as kube-apiserver registers it. */
export const taintNodesByConditionPluginName = 'TaintNodesByCondition';

/** The taint's key; its effect is NoSchedule. */
export const notReadyTaintKey = 'node.kubernetes.io/not-ready';

/** Whether a taint is the not-ready NoSchedule one (kube's MatchTaint: key and effect). */
function isNotReadyTaint(taint: unknown): boolean {
  if (typeof taint !== 'object' || taint === null) return false;
  const t = taint as { key?: unknown; effect?: unknown };
  return t.key === notReadyTaintKey && t.effect === 'NoSchedule';
}

/** Makes the TaintNodesByCondition plugin (it takes no configuration). */
export const taintNodesByConditionPlugin: PluginFactory = () => {
  const plugin: AdmissionPlugin = {
    name: taintNodesByConditionPluginName,
    handles: (operation) => operation === 'CREATE',
    async admit(attributes) {
      const { group, resource } = attributes.resource;
      if (group !== '' || resource !== 'nodes' || attributes.subresource !== '' || attributes.object === undefined) return;
      const node = attributes.object;
      const spec = (typeof node.spec === 'object' && node.spec !== null ? node.spec : (node.spec = {})) as Record<string, unknown>;
      const taints: unknown[] = Array.isArray(spec.taints) ? spec.taints : [];
      if (taints.some(isNotReadyTaint)) return;
      taints.push({ key: notReadyTaintKey, effect: 'NoSchedule' });
      spec.taints = taints;
    },
  };
  return plugin;
};
