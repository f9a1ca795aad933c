// The two compiled-in plugins, ValidatingAdmissionWebhook and MutatingAdmissionWebhook, as
// PluginFactory values the replica registers by name. Each factory closes over the source of
// its configurations (fed by the replica's watch) and the optional server hooks; the plugin's
// AdmissionConfiguration entry (WebhookAdmissionConfiguration) names the credentials kubeconfig.
import { admissionForbidden } from '../forbidden.ts';
import type { AdmissionAttributes } from '../attributes.ts';
import type { AdmissionDeps, AdmissionPlugin, PluginFactory } from '../plugin.ts';
import { WebhookCredentials, webhookKubeconfigFile } from './client-credentials.ts';
import type { WebhookConfigurationSource } from './configuration-source.ts';
import type { DispatchContext } from './dispatch-context.ts';
import { noEquivalentResources, type EquivalentResources } from './equivalents.ts';
import { isExemptAdmissionConfiguration } from './exemptions.ts';
import type { MatchConditionEvaluator } from './match-conditions.ts';
import { CelMatchConditions } from './cel-match-conditions.ts';
import { WebhookMetrics } from './metrics.ts';
import { dispatchMutating, mutatingPluginName } from './mutating-dispatcher.ts';
import { EndpointServiceResolver, type ServiceResolver } from './service-resolver.ts';
import { dispatchValidating } from './validating-dispatcher.ts';

/** What a webhook plugin needs beyond AdmissionDeps. Only `source` is required. */
export interface WebhookPluginOptions {
  /** The configurations of the plugin's kind; the replica calls replace() from its watch. */
  readonly source: WebhookConfigurationSource;
  /** Shared by both plugins so /metrics shows one set (register it on the API registry). */
  readonly metrics?: WebhookMetrics;
  /** For matchPolicy Equivalent; absent: no resource has equivalents. */
  readonly equivalents?: EquivalentResources;
  /** For matchConditions; absent: conditions are an evaluation error (see match-conditions.ts). */
  readonly matchConditions?: MatchConditionEvaluator;
  /** Where service webhooks are reached; absent: the Service's Endpoints read through deps.objects. */
  readonly services?: ServiceResolver;
}

function credentialsFrom(configuration: unknown, apiDomain: string): WebhookCredentials {
  const file = webhookKubeconfigFile(configuration, apiDomain);
  return file === undefined ? WebhookCredentials.none() : WebhookCredentials.fromKubeconfigFile(file);
}

function contextOf(deps: AdmissionDeps, configuration: unknown, options: WebhookPluginOptions): DispatchContext {
  return {
    objects: deps.objects,
    equivalents: options.equivalents ?? noEquivalentResources,
    matchConditions: options.matchConditions ?? new CelMatchConditions(deps.authorizer),
    log: deps.log,
    clock: deps.clock,
    metrics: options.metrics ?? new WebhookMetrics(),
    client: { apiDomain: deps.apiDomain, credentials: credentialsFrom(configuration, deps.apiDomain), services: options.services ?? new EndpointServiceResolver(deps.objects) },
  };
}

/** How long a request waits for the first list of configurations before it is refused (kube's WaitForReady). */
const syncWaitMs = 10_000;

/** The webhooks to run; before the source has its first list, a wait, then kube's "not yet ready" refusal. */
async function webhooksFor(attributes: AdmissionAttributes, source: WebhookConfigurationSource): Promise<ReturnType<WebhookConfigurationSource['webhooks']>> {
  if (!source.hasSynced() && !(await source.waitSynced(syncWaitMs))) throw admissionForbidden(attributes, 'not yet ready to handle request');
  return source.webhooks();
}

/** ValidatingAdmissionWebhook: calls the matching validating webhooks in parallel. */
export function validatingWebhookPlugin(options: WebhookPluginOptions): PluginFactory {
  if (options.source.kind !== 'ValidatingWebhookConfiguration') throw new Error(`assert: ValidatingAdmissionWebhook given a source of ${options.source.kind}s`);
  return (deps, configuration): AdmissionPlugin => {
    const context = contextOf(deps, configuration, options);
    return {
      name: 'ValidatingAdmissionWebhook',
      handles: () => true,
      async validate(attributes) {
        if (isExemptAdmissionConfiguration(attributes, deps.apiDomain)) return;
        await dispatchValidating(await webhooksFor(attributes, options.source), attributes, context);
      },
    };
  };
}

/** MutatingAdmissionWebhook: calls the matching mutating webhooks in order, applying their patches. */
export function mutatingWebhookPlugin(options: WebhookPluginOptions): PluginFactory {
  if (options.source.kind !== 'MutatingWebhookConfiguration') throw new Error(`assert: MutatingAdmissionWebhook given a source of ${options.source.kind}s`);
  return (deps, configuration): AdmissionPlugin => {
    const context = contextOf(deps, configuration, options);
    return {
      name: mutatingPluginName,
      handles: () => true,
      async admit(attributes) {
        if (isExemptAdmissionConfiguration(attributes, deps.apiDomain)) return;
        await dispatchMutating(await webhooksFor(attributes, options.source), attributes, context);
      },
    };
  };
}
