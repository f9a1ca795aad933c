// The webhook configuration as the dispatchers read it: one defaulted webhook of a stored
// Validating- or MutatingWebhookConfiguration, with the identity kube's accessors give it.
import type { GroupVersionKind, GroupVersionResource } from '../attributes.ts';

/** One `rules[i]` of a webhook (defaulted: scope is set). */
export interface WebhookRule {
  readonly operations?: readonly string[];
  readonly apiGroups?: readonly string[];
  readonly apiVersions?: readonly string[];
  readonly resources?: readonly string[];
  readonly scope?: string;
}

/** `clientConfig.service`: port defaulted to 443. */
export interface WebhookService {
  readonly namespace: string;
  readonly name: string;
  readonly path?: string;
  readonly port?: number;
}

/** `clientConfig`: exactly one of url and service; caBundle is base64 PEM. */
export interface WebhookClientConfig {
  readonly url?: string;
  readonly service?: WebhookService;
  readonly caBundle?: string;
}

/** One `matchConditions[i]`. */
export interface MatchCondition {
  readonly name: string;
  readonly expression: string;
}

/** A webhook of either kind, after v1 defaulting. */
export interface WebhookSpec {
  readonly name: string;
  readonly clientConfig: WebhookClientConfig;
  readonly rules?: readonly WebhookRule[];
  readonly failurePolicy?: string;
  readonly matchPolicy?: string;
  readonly namespaceSelector?: unknown;
  readonly objectSelector?: unknown;
  readonly sideEffects?: string;
  readonly timeoutSeconds?: number;
  readonly admissionReviewVersions?: readonly string[];
  readonly reinvocationPolicy?: string;
  readonly matchConditions?: readonly MatchCondition[];
}

/** A webhook with the configuration it came from. */
export interface ConfiguredWebhook {
  /** `<configuration>/<webhook>/<index>`: unique within a source (kube's accessor UID). */
  readonly uid: string;
  readonly configurationName: string;
  readonly spec: WebhookSpec;
}

/** What a matching webhook is called for: the resource and kind the request is sent as. */
export interface WebhookInvocation {
  readonly webhook: ConfiguredWebhook;
  readonly resource: GroupVersionResource;
  readonly subresource: string;
  readonly kind: GroupVersionKind;
}

/** Whether failures calling `spec` are ignored (failurePolicy Ignore); anything else fails closed. */
export function ignoresCallFailures(spec: WebhookSpec): boolean {
  return spec.failurePolicy === 'Ignore';
}
