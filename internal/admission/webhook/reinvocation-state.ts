// The mutating webhooks' memory between the two passes of one request (kube's
// webhookReinvokeContext), kept in the request's ReinvocationContext under the plugin's name:
// which IfNeeded webhooks ran before the object last changed, and the object they last produced.
import type { KObject } from '../../registry/schema/declaration.ts';
import { jsonEqual } from '../../patch/json-value.ts';
import type { ReinvocationContext } from '../attributes.ts';

/** One request's reinvocation bookkeeping for the mutating webhook plugin. */
export class WebhookReinvocationState {
  private lastOutput: KObject | undefined;
  private previouslyInvoked = new Set<string>();
  private readonly toReinvoke = new Set<string>();

  /** The state kept in `context` under `pluginName`, created on the first pass. */
  static of(context: ReinvocationContext, pluginName: string): WebhookReinvocationState {
    const known = context.values.get(pluginName);
    if (known instanceof WebhookReinvocationState) return known;
    const created = new WebhookReinvocationState();
    context.values.set(pluginName, created);
    return created;
  }

  /** Whether a webhook (by uid) is to be called again in the reinvocation pass. */
  shouldReinvoke(uid: string): boolean {
    return this.toReinvoke.has(uid);
  }

  /** Whether someone (another plugin) changed the object since the webhooks' last pass ended. */
  outputChangedSince(object: KObject | undefined): boolean {
    return !jsonEqual(this.lastOutput ?? null, object ?? null);
  }

  /**
   * Remembers the object the webhooks' pass ended with (a copy). Only a reinvocation pass reads it,
   * and only to mark the IfNeeded webhooks that ran as due again: with none run (no webhooks, the
   * common case) no copy of every written object is made.
   */
  setLastOutput(object: KObject | undefined): void {
    this.lastOutput = object === undefined || this.previouslyInvoked.size === 0 ? undefined : structuredClone(object);
  }

  /** An IfNeeded webhook ran: it is reinvoked if a later change comes. */
  addReinvocable(uid: string): void {
    this.previouslyInvoked.add(uid);
  }

  /** The object changed: every IfNeeded webhook that ran before is due again. */
  requireReinvokingPreviouslyInvoked(): void {
    for (const uid of this.previouslyInvoked) this.toReinvoke.add(uid);
    this.previouslyInvoked = new Set();
  }
}
