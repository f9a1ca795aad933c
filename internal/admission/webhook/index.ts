// The admission webhook plugins' public surface: what the replica wires (sources, factories,
// metrics) and what it may inject (equivalent resources, a matchConditions evaluator, a resolver).
export { WebhookConfigurationSource, type WebhookConfigurationKind } from './configuration-source.ts';
export { mutatingWebhookPlugin, validatingWebhookPlugin, type WebhookPluginOptions } from './plugins.ts';
export { WebhookMetrics } from './metrics.ts';
export { noEquivalentResources, type EquivalentResources } from './equivalents.ts';
export { unsupportedMatchConditions, type MatchConditionEvaluator, type MatchConditionsResult } from './match-conditions.ts';
export { EndpointServiceResolver, type ServiceResolver } from './service-resolver.ts';
