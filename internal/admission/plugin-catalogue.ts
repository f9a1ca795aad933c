// The compiled-in admission plugins by name, and the watches some of them need.
import type { Registry } from 'prom-client';
import { runWatchedLoop } from '../controllers/watched-loop.ts';
import type { GenericStore } from '../registry/generic/store.ts';
import type { ResourceRegistry, ServedResource } from '../registry/resource-registry.ts';
import type { PluginFactory } from './plugin.ts';
import { alwaysAdmitPlugin } from './plugins/always-admit/always-admit.ts';
import { alwaysDenyPlugin } from './plugins/always-deny/always-deny.ts';
import { alwaysPullImagesPlugin } from './plugins/always-pull-images/always-pull-images.ts';
import { certificateApprovalPlugin } from './plugins/certificates/certificate-approval.ts';
import { certificateSigningPlugin } from './plugins/certificates/certificate-signing.ts';
import { certificateSubjectRestrictionPlugin } from './plugins/certificates/certificate-subject-restriction.ts';
import { defaultIngressClassPlugin } from './plugins/default-ingress-class/plugin.ts';
import { defaultStorageClassPlugin } from './plugins/default-storage-class/plugin.ts';
import { defaultTolerationSecondsPlugin } from './plugins/default-toleration-seconds/plugin.ts';
import { denyServiceExternalIpsPlugin } from './plugins/deny-service-external-ips/deny-service-external-ips.ts';
import { eventRateLimitPlugin } from './plugins/event-rate-limit/event-rate-limit.ts';
import { extendedResourceTolerationPlugin } from './plugins/extended-resource-toleration/extended-resource-toleration.ts';
import { imagePolicyWebhookPlugin } from './plugins/image-policy-webhook/image-policy-webhook.ts';
import { limitPodHardAntiAffinityTopologyPlugin } from './plugins/limit-pod-hard-anti-affinity-topology/limit-pod-hard-anti-affinity-topology.ts';
import { limitRangerPlugin } from './plugins/limitranger/plugin.ts';
import { namespaceAutoProvisionPlugin } from './plugins/namespace-autoprovision/plugin.ts';
import { namespaceExistsPlugin } from './plugins/namespace-exists/plugin.ts';
import { namespaceLifecyclePlugin } from './plugins/namespace-lifecycle/plugin.ts';
import { nodeRestrictionPlugin } from './plugins/node-restriction/node-restriction.ts';
import { ownerReferencesPermissionEnforcementFactory } from './plugins/owner-references-permission-enforcement/owner-references-permission-enforcement.ts';
import { persistentVolumeClaimResizePlugin } from './plugins/persistent-volume-claim-resize/plugin.ts';
import { podNodeSelectorPlugin } from './plugins/pod-node-selector/pod-node-selector.ts';
import { podTolerationRestrictionPlugin } from './plugins/pod-toleration-restriction/pod-toleration-restriction.ts';
import { podSecurityPlugin } from './plugins/podsecurity/podsecurity-plugin.ts';
import { priorityPlugin } from './plugins/priority/plugin.ts';
import { resourceQuotaPluginWith } from './plugins/resourcequota/plugin.ts';
import { QuotaNamespaces } from './plugins/resourcequota/quota-namespaces.ts';
import { runtimeClassPlugin } from './plugins/runtime-class/plugin.ts';
import { securityContextDenyPlugin } from './plugins/security-context-deny/security-context-deny.ts';
import { serviceAccountPlugin } from './plugins/service-account/plugin.ts';
import { storageObjectInUseProtectionPlugin } from './plugins/storage-object-in-use-protection/plugin.ts';
import { taintNodesByConditionPlugin } from './plugins/taint-nodes-by-condition/plugin.ts';
import { mutatingWebhookPlugin, validatingWebhookPlugin, WebhookConfigurationSource, WebhookMetrics } from './webhook/index.ts';
import { webhookConfigurationResyncMs } from './limits.ts';
import { RegistryEquivalents } from './registry-equivalents.ts';
import { validatingAdmissionPolicyPlugin } from './policy/validating-admission-policy-plugin.ts';

/**
 * Plugins kube-apiserver 1.28 has that orch accepts in the flags but does not build yet, with why:
 * each acts only on a resource orch does not serve yet, so leaving it out changes no answer.
 */
export const pendingPlugins: ReadonlyMap<string, string> = new Map([
  ['ClusterTrustBundleAttest', 'ClusterTrustBundles are not served yet'],
  ['PersistentVolumeLabel', 'it labels cloud-provider volumes; orch has no cloud provider'],
]);

/** What the catalogue's plugins and watches need from the server. */
export interface CatalogueDeps {
  readonly registry: ResourceRegistry;
  readonly stores: ReadonlyMap<ServedResource, GenericStore>;
  readonly log: (message: string, err?: unknown) => void;
  /** Where the webhook metrics go (the API's /metrics registry). */
  readonly metricsRegistry?: Registry;
}

export interface PluginCatalogue {
  readonly factories: ReadonlyMap<string, PluginFactory>;
  /** Starts what the enabled plugins watch (the webhook configurations); stop() ends it. */
  start(enabled: readonly string[]): { stop(): Promise<void> };
}

/** The resource an owner reference's apiVersion and kind name, as the served registry knows it (a RESTMapper). */
function resourceFinder(registry: ResourceRegistry) {
  return (apiVersion: string, kind: string) => {
    const served = registry.resources.find((r) => r.apiVersion === apiVersion && r.decl.kind === kind);
    return served && { group: served.group, version: served.version, resource: served.decl.plural, namespaced: served.decl.namespaced };
  };
}

/** The store of a core-group (`group` '') or other served resource at v1, if served. */
function servedStore(deps: CatalogueDeps, group: string, plural: string): GenericStore | undefined {
  const served = deps.registry.find(group, 'v1', plural);
  return served && deps.stores.get(served);
}

/** Feeds `source` every configuration of its kind: at start, then after each change (every replica runs its own). */
function feed(source: WebhookConfigurationSource, store: GenericStore, signal: AbortSignal, log: CatalogueDeps['log']): Promise<void> {
  return runWatchedLoop({
    watched: [{ store }],
    pass: async () => {
      source.replace((await store.list(undefined, { resourceVersion: '0' })).items);
    },
    resyncMs: webhookConfigurationResyncMs,
    batchMs: 0,
    failureMessage: `admission: reading the ${source.kind}s failed`,
    log,
  }, signal);
}

export function pluginCatalogue(deps: CatalogueDeps): PluginCatalogue {
  const metrics = new WebhookMetrics(deps.metricsRegistry);
  const validating = new WebhookConfigurationSource('ValidatingWebhookConfiguration');
  const mutating = new WebhookConfigurationSource('MutatingWebhookConfiguration');
  const equivalents = new RegistryEquivalents(deps.registry);
  const policies = validatingAdmissionPolicyPlugin({ registry: deps.registry, stores: deps.stores, equivalents, log: deps.log });
  const quotaStore = servedStore(deps, '', 'resourcequotas');
  // Followed only while the plugin is enabled (start); until then it knows nothing and the plugin reads the store.
  const quotaNamespaces = quotaStore === undefined ? undefined : new QuotaNamespaces(quotaStore, deps.log);
  const factories = new Map<string, PluginFactory>([
    ['AlwaysAdmit', alwaysAdmitPlugin],
    ['NamespaceAutoProvision', namespaceAutoProvisionPlugin],
    ['NamespaceLifecycle', namespaceLifecyclePlugin],
    ['NamespaceExists', namespaceExistsPlugin],
    ['SecurityContextDeny', securityContextDenyPlugin],
    ['LimitPodHardAntiAffinityTopology', limitPodHardAntiAffinityTopologyPlugin],
    ['LimitRanger', limitRangerPlugin],
    ['ServiceAccount', serviceAccountPlugin],
    ['NodeRestriction', nodeRestrictionPlugin],
    ['TaintNodesByCondition', taintNodesByConditionPlugin],
    ['AlwaysPullImages', alwaysPullImagesPlugin],
    ['ImagePolicyWebhook', imagePolicyWebhookPlugin],
    ['PodSecurity', podSecurityPlugin],
    ['PodNodeSelector', podNodeSelectorPlugin],
    ['Priority', priorityPlugin],
    ['DefaultTolerationSeconds', defaultTolerationSecondsPlugin],
    ['PodTolerationRestriction', podTolerationRestrictionPlugin],
    ['EventRateLimit', eventRateLimitPlugin],
    ['ExtendedResourceToleration', extendedResourceTolerationPlugin],
    ['DefaultStorageClass', defaultStorageClassPlugin],
    ['StorageObjectInUseProtection', storageObjectInUseProtectionPlugin],
    ['OwnerReferencesPermissionEnforcement', ownerReferencesPermissionEnforcementFactory(resourceFinder(deps.registry))],
    ['PersistentVolumeClaimResize', persistentVolumeClaimResizePlugin],
    ['RuntimeClass', runtimeClassPlugin],
    ['CertificateApproval', certificateApprovalPlugin],
    ['CertificateSigning', certificateSigningPlugin],
    ['CertificateSubjectRestriction', certificateSubjectRestrictionPlugin],
    ['DefaultIngressClass', defaultIngressClassPlugin],
    ['DenyServiceExternalIPs', denyServiceExternalIpsPlugin],
    ['MutatingAdmissionWebhook', mutatingWebhookPlugin({ source: mutating, metrics, equivalents })],
    ['ValidatingAdmissionPolicy', policies.factory],
    ['ValidatingAdmissionWebhook', validatingWebhookPlugin({ source: validating, metrics, equivalents })],
    ['ResourceQuota', resourceQuotaPluginWith(quotaNamespaces)],
    ['AlwaysDeny', alwaysDenyPlugin],
  ]);
  return {
    factories,
    start(enabled) {
      const abort = new AbortController();
      const running: Promise<void>[] = [];
      for (const [plugin, source] of [['MutatingAdmissionWebhook', mutating], ['ValidatingAdmissionWebhook', validating]] as const) {
        if (!enabled.includes(plugin)) continue;
        const plural = source.kind === 'MutatingWebhookConfiguration' ? 'mutatingwebhookconfigurations' : 'validatingwebhookconfigurations';
        const store = servedStore(deps, `admissionregistration.${deps.registry.apiDomain}`, plural);
        if (store === undefined) throw new Error(`assert: ${plugin} is enabled but ${plural} are not served`);
        running.push(feed(source, store, abort.signal, deps.log));
      }
      if (enabled.includes('ValidatingAdmissionPolicy')) running.push(policies.run(abort.signal));
      const quotaIndex = enabled.includes('ResourceQuota') ? quotaNamespaces : undefined;
      quotaIndex?.start();
      return {
        async stop() {
          abort.abort();
          await Promise.all([...running, quotaIndex?.stop()]);
        },
      };
    },
  };
}
