// SetDefaults_ValidatingWebhook, SetDefaults_MutatingWebhook, SetDefaults_Rule and
// SetDefaults_ServiceReference of kube-apiserver 1.28's admissionregistration/v1: what a stored
// webhook configuration always carries, so the dispatchers never guess at an absent field.
import type { KObject } from '../schema/declaration.ts';

type Entry = Record<string, unknown>;

function isEntry(value: unknown): value is Entry {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function entries(value: unknown): Entry[] {
  return Array.isArray(value) ? value.filter(isEntry) : [];
}

/** Fills one webhook's v1 defaults in place; `mutating` adds reinvocationPolicy. */
export function defaultWebhook(hook: Entry, mutating: boolean): void {
  hook.failurePolicy ??= 'Fail';
  hook.matchPolicy ??= 'Equivalent';
  hook.namespaceSelector ??= {};
  hook.objectSelector ??= {};
  hook.timeoutSeconds ??= 10;
  if (mutating) hook.reinvocationPolicy ??= 'Never';
  for (const rule of entries(hook.rules)) rule.scope ??= '*';
  const clientConfig = hook.clientConfig;
  if (isEntry(clientConfig) && isEntry(clientConfig.service)) clientConfig.service.port ??= 443;
}

/** Fills the defaults of every webhook of a Validating- or MutatingWebhookConfiguration in place. */
export function defaultWebhookConfiguration(obj: KObject, mutating: boolean): void {
  for (const hook of entries(obj.webhooks)) defaultWebhook(hook, mutating);
}
