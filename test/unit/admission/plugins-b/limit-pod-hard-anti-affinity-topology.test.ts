import { test } from 'node:test';
import { limitPodHardAntiAffinityTopologyPlugin } from '../../../../internal/admission/plugins/limit-pod-hard-anti-affinity-topology/limit-pod-hard-anti-affinity-topology.ts';
import { attributes, pod, rejectsWith, testDeps } from './helpers.ts';

const plugin = limitPodHardAntiAffinityTopologyPlugin(testDeps(), undefined);

function withTerms(name: string, keys: string[], metadata: Record<string, unknown> = {}) {
  const terms = keys.map((topologyKey) => ({ labelSelector: { matchLabels: { a: 'b' } }, topologyKey }));
  return pod(name, { affinity: { podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: terms } } }, metadata);
}

test('LimitPodHardAntiAffinityTopology allows the hostname key and preferred terms', async () => {
  await plugin.validate!(attributes({ object: withTerms('p', ['kubernetes.io/hostname']) }));
  const preferred = pod('p', { affinity: { podAntiAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 1, podAffinityTerm: { topologyKey: 'zone' } }] } } });
  await plugin.validate!(attributes({ object: preferred }));
});

test('LimitPodHardAntiAffinityTopology refuses another required topology key', async () => {
  await rejectsWith(
    plugin.validate!(attributes({ object: withTerms('p', ['kubernetes.io/hostname', 'topology.kubernetes.io/zone']) })),
    403,
    'pods "p" is forbidden: affinity.PodAntiAffinity.RequiredDuringScheduling has TopologyKey topology.kubernetes.io/zone but only key kubernetes.io/hostname is allowed',
  );
  // kube names the pod by its metadata.name, which a generateName pod does not have yet.
  await rejectsWith(
    plugin.validate!(attributes({ object: withTerms('', ['zone'], { generateName: 'web-' }) })),
    403,
    'pods is forbidden: affinity.PodAntiAffinity.RequiredDuringScheduling has TopologyKey zone but only key kubernetes.io/hostname is allowed',
  );
});
