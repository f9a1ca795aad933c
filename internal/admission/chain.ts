// The admission chain: the enabled plugins in kube-apiserver's fixed order, mutating phase then
// validating phase (k8s.io/apiserver's chainAdmissionHandler and its reinvoker). A refusal by any
// plugin in either phase refuses the request; nothing after it runs.
import type { AdmissionAttributes } from './attributes.ts';
import type { AdmissionPlugin } from './plugin.ts';
import { inChildSpan } from '../tracing/spans.ts';

/** A phase's span attributes: what is admitted, and how many plugins the phase has. */
function spanAttributes(attributes: AdmissionAttributes, plugins: number) {
  const { resource } = attributes;
  return {
    operation: attributes.operation, resource: resource.group === '' ? resource.resource : `${resource.resource}.${resource.group}`,
    ...(attributes.subresource === '' ? {} : { subresource: attributes.subresource }),
    ...(attributes.namespace === '' ? {} : { namespace: attributes.namespace }), plugins,
  };
}

export class AdmissionChain {
  private readonly mutating: readonly AdmissionPlugin[];
  private readonly validating: readonly AdmissionPlugin[];

  constructor(readonly plugins: readonly AdmissionPlugin[]) {
    this.mutating = plugins.filter((p) => p.admit !== undefined);
    this.validating = plugins.filter((p) => p.validate !== undefined);
  }

  /** The names of the enabled plugins, in the order they run. */
  get names(): string[] {
    return this.plugins.map((p) => p.name);
  }

  /**
   * The mutating phase. When a plugin asks for reinvocation (a mutating webhook with
   * `reinvocationPolicy: IfNeeded` whose object a later plugin changed), every mutating plugin
   * runs once more, told it is a reinvocation; never a third time.
   */
  admit(attributes: AdmissionAttributes): Promise<void> {
    return inChildSpan('Admission mutating', () => spanAttributes(attributes, this.mutating.length), () => this.admitPhase(attributes));
  }

  /** The validating phase: the plugins in order, the first refusal wins. */
  validate(attributes: AdmissionAttributes): Promise<void> {
    return inChildSpan('Admission validating', () => spanAttributes(attributes, this.validating.length), () => this.validatePhase(attributes));
  }

  private async admitPhase(attributes: AdmissionAttributes): Promise<void> {
    const context = attributes.reinvocation;
    context.isReinvoke = false;
    context.shouldReinvoke = false;
    await this.runMutating(attributes);
    if (!context.shouldReinvoke) return;
    context.isReinvoke = true;
    context.shouldReinvoke = false;
    await this.runMutating(attributes);
  }

  private async validatePhase(attributes: AdmissionAttributes): Promise<void> {
    for (const plugin of this.validating) {
      if (plugin.handles(attributes.operation)) await plugin.validate?.(attributes);
    }
  }

  private async runMutating(attributes: AdmissionAttributes): Promise<void> {
    for (const plugin of this.mutating) {
      if (plugin.handles(attributes.operation)) await plugin.admit?.(attributes);
    }
  }
}
