// The webhook configurations a replica currently has, kept from its watch (kube's
// {Validating,Mutating}WebhookConfigurationManager): the replica lists and watches one kind and
// calls replace() with every configuration after each change; the dispatchers read webhooks().
import type { KObject } from '../../registry/schema/declaration.ts';
import { defaultWebhookConfiguration } from '../../registry/admissionregistration/webhook-defaults.ts';
import { webhooksPerSourceMax } from './limits.ts';
import type { ConfiguredWebhook, WebhookSpec } from './webhook-types.ts';

/** Which kind of configuration a source holds. */
export type WebhookConfigurationKind = 'ValidatingWebhookConfiguration' | 'MutatingWebhookConfiguration';

/**
 * The current webhooks of one kind, sorted by configuration name and then by their order in the
 * configuration, as kube calls them. Not ready (hasSynced false) until the first replace().
 */
export class WebhookConfigurationSource {
  private current: readonly ConfiguredWebhook[] = [];
  private synced = false;
  private readonly syncWaiters = new Set<() => void>();

  constructor(readonly kind: WebhookConfigurationKind) {}

  /**
   * Replaces every configuration with `configurations` (the full current set, as a list or a
   * watch's cache holds it). Objects are copied and defaulted; the arguments are not changed.
   * Throws when they hold more than webhooksPerSourceMax webhooks (the previous set is kept).
   */
  replace(configurations: readonly KObject[]): void {
    const mutating = this.kind === 'MutatingWebhookConfiguration';
    const sorted = [...configurations].sort((a, b) => compareNames(a.metadata.name ?? '', b.metadata.name ?? ''));
    const webhooks: ConfiguredWebhook[] = [];
    for (const configuration of sorted) {
      const copy = structuredClone(configuration);
      defaultWebhookConfiguration(copy, mutating);
      const configurationName = copy.metadata.name ?? '';
      const specs = Array.isArray(copy.webhooks) ? (copy.webhooks as WebhookSpec[]) : [];
      specs.forEach((spec, index) => webhooks.push({ uid: `${configurationName}/${spec.name}/${index}`, configurationName, spec }));
    }
    if (webhooks.length > webhooksPerSourceMax) throw new Error(`${this.kind}s hold ${webhooks.length} webhooks, more than the ${webhooksPerSourceMax} a replica calls`);
    this.current = webhooks;
    this.synced = true;
    for (const wake of this.syncWaiters) wake();
    this.syncWaiters.clear();
  }

  /** Resolves true once synced, or false after `ms` (kube's admission WaitForReady waits 10 s). */
  waitSynced(ms: number): Promise<boolean> {
    if (this.synced) return Promise.resolve(true);
    return new Promise((resolve) => {
      const wake = (): void => {
        clearTimeout(timer);
        resolve(true);
      };
      const timer = setTimeout(() => {
        this.syncWaiters.delete(wake);
        resolve(this.synced);
      }, ms);
      this.syncWaiters.add(wake);
    });
  }

  /** The webhooks in call order; the array is replaced, never changed, by replace(). */
  webhooks(): readonly ConfiguredWebhook[] {
    return this.current;
  }

  /** Whether replace() has been called once: before, requests are refused rather than let through unchecked. */
  hasSynced(): boolean {
    return this.synced;
  }
}

/** Go's string order (bytes), which kube's sort by name uses. */
function compareNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
