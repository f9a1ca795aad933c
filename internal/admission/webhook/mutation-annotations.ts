// The audit annotations the mutating phase leaves (kube's webhookAnnotator): for every webhook
// called, whether it mutated the object; for every applied patch, the patch; for every failure
// let through, the webhook's name. Keys carry the round (0, or 1 when reinvoked) and the index.
import type { AdmissionAttributes } from '../attributes.ts';

const mutationPrefix = 'mutation.webhook.admission.k8s.io/';
const patchPrefix = 'patch.webhook.admission.k8s.io/';
const failedOpenPrefix = `failed-open.${mutationPrefix}`;

/** Writes one webhook call's annotations. */
export class MutationAnnotator {
  private readonly suffix: string;

  constructor(
    private readonly attributes: AdmissionAttributes,
    round: number,
    index: number,
    private readonly webhook: string,
    private readonly configuration: string,
  ) {
    this.suffix = `round_${round}_index_${index}`;
  }

  /** `{"configuration":..,"webhook":..,"mutated":..}`, field order as Go marshals it. */
  addMutation(mutated: boolean): void {
    this.attributes.addAnnotation(`${mutationPrefix}${this.suffix}`, JSON.stringify({ configuration: this.configuration, webhook: this.webhook, mutated }));
  }

  /** The applied JSON Patch; each operation's keys sorted, as Go marshals a map. */
  addPatch(patch: readonly Record<string, unknown>[]): void {
    const sorted = patch.map((op) => Object.fromEntries(Object.keys(op).sort().map((k) => [k, op[k]])));
    this.attributes.addAnnotation(`${patchPrefix}${this.suffix}`, JSON.stringify({ configuration: this.configuration, webhook: this.webhook, patch: sorted, patchType: 'JSONPatch' }));
  }

  /** The webhook failed and failurePolicy Ignore let the request through. */
  addFailedOpen(): void {
    this.attributes.addAnnotation(`${failedOpenPrefix}${this.suffix}`, this.webhook);
  }
}
