// The pod's own sub-resources, as kube-apiserver 1.28 lists them in /api/v1 (kinds, verbs, the
// policy/v1 Eviction) and serves them (pkg/registry/core/pod/storage/storage.go): this is where
// the pods declaration gets them and where the pod store gets their behaviour.
import type { SubresourceDeclaration } from '../../schema/declaration.ts';
import { builtinFields } from '../../schema/builtin-schemas.ts';
import { GenericStore } from '../../generic/store.ts';
import type { SubresourceStore } from '../../generic/subresource-store.ts';
import { poddisruptionbudgets } from '../../policy/poddisruptionbudgets.ts';
import { bindPod } from './binding.ts';
import { ephemeralContainersView } from './ephemeral-containers.ts';
import { evictPod } from './eviction.ts';
import { podConnectStore } from './pod-connect.ts';

const connectVerbs = ['create', 'get'] as const;
const proxyVerbs = ['create', 'delete', 'get', 'patch', 'update'] as const;

/** The sub-resources of pods besides status, in kube-apiserver's (alphabetical) order. */
export const podSubresources: Readonly<Record<string, SubresourceDeclaration>> = {
  attach: { kind: 'PodAttachOptions', verbs: connectVerbs },
  binding: { kind: 'Binding', verbs: ['create'], body: { apiVersions: ['v1'], fields: builtinFields('io.k8s.api.core.v1.Binding') } },
  ephemeralcontainers: { kind: 'Pod', verbs: ['get', 'patch', 'update'], view: ephemeralContainersView },
  // Upstream accepts the policy/v1beta1 Eviction too; its fields are v1's.
  eviction: { kind: 'Eviction', kindGroupVersion: { group: 'policy', version: 'v1' }, verbs: ['create'], body: { apiVersions: ['policy/v1', 'policy/v1beta1'], fields: builtinFields('io.k8s.api.policy.v1.Eviction') } },
  exec: { kind: 'PodExecOptions', verbs: connectVerbs },
  log: { kind: 'Pod', verbs: ['get'] },
  portforward: { kind: 'PodPortForwardOptions', verbs: connectVerbs },
  proxy: { kind: 'PodProxyOptions', verbs: proxyVerbs, takesPath: true },
};

/** The budgets' store an eviction reads and writes, over the pods' storage. */
function budgetsStore(pods: GenericStore): GenericStore {
  // policy is not qualified with the API domain, so its served form is known here.
  return new GenericStore(pods.storage, { decl: poddisruptionbudgets, group: 'policy', version: 'v1', apiVersion: 'policy/v1' });
}

/** The behaviour of the pod's sub-resources that are not views, acting on the pods' store `pods`. */
export function podSubresourceStores(pods: GenericStore): Record<string, SubresourceStore> {
  let budgets: GenericStore | undefined;
  return {
    binding: { create: (call, body) => bindPod(pods, call.namespace, call.name, body, call.dryRun) },
    eviction: {
      create(call, body) {
        budgets ??= budgetsStore(pods);
        return evictPod({ pods, budgets }, { namespace: call.namespace, name: call.name, dryRun: call.dryRun }, body);
      },
    },
    attach: podConnectStore(pods, 'attach'),
    exec: podConnectStore(pods, 'exec'),
    log: podConnectStore(pods, 'log'),
    portforward: podConnectStore(pods, 'portforward'),
    proxy: podConnectStore(pods, 'proxy'),
  };
}
