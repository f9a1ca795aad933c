// The ValidatingAdmissionPolicies and bindings a replica currently has, kept from its watches
// (kube's policy controller and its informers): the replica lists and watches both kinds and calls
// replacePolicies() / replaceBindings() with every object after each change; the dispatcher reads
// snapshot(). A policy is compiled when first seen and again only when its generation changes.
import { defaultValidatingAdmissionPolicy, defaultValidatingAdmissionPolicyBinding } from '../../registry/admissionregistration/policy-defaults.ts';
import type { KObject } from '../../registry/schema/declaration.ts';
import { brokenPolicy, compilePolicy, policyKey, type CompiledPolicy } from './compiled-policy.ts';
import { policiesPerSourceMax } from './limits.ts';
import type { BindingSpec, PolicyBinding } from './policy-types.ts';

/** A policy with the bindings naming it, both sorted by name. */
export interface PolicyWithBindings {
  readonly policy: CompiledPolicy;
  readonly bindings: readonly PolicyBinding[];
}

/** Go's string order (bytes), which kube's sorts by name use. */
function compareNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function byName(a: KObject, b: KObject): number {
  return compareNames(a.metadata.name ?? '', b.metadata.name ?? '');
}

/** A defaulted copy of `policy`, compiled; a policy that cannot be compiled is kept broken rather than failing the whole set. */
function compileOne(policy: KObject): CompiledPolicy {
  let copy = policy;
  try {
    copy = structuredClone(policy);
    defaultValidatingAdmissionPolicy(copy);
    return compilePolicy(copy);
  } catch (err) {
    return brokenPolicy(copy, err);
  }
}

/** A defaulted copy of `binding` as the dispatcher reads it (nulls dropped). */
function bindingOf(binding: KObject): PolicyBinding {
  let copy = binding;
  try {
    copy = structuredClone(binding);
    defaultValidatingAdmissionPolicyBinding(copy);
  } catch {
    // An odd stored object: kept as it is; the dispatcher answers its errors by the failure policy.
  }
  return { name: copy.metadata.name ?? '', spec: (typeof copy.spec === 'object' && copy.spec !== null ? copy.spec : {}) as BindingSpec };
}

/** The current policies and bindings; not ready (hasSynced false) until both were replaced once. */
export class PolicySource {
  private compiled = new Map<string, CompiledPolicy>();
  private bindings: readonly PolicyBinding[] = [];
  private current: readonly PolicyWithBindings[] = [];
  private policiesSynced = false;
  private bindingsSynced = false;
  private readonly syncWaiters = new Set<() => void>();

  /**
   * Replaces every policy with `policies` (the full current set). Objects are copied and
   * defaulted; the arguments are not changed. Throws when there are more than
   * policiesPerSourceMax (the previous set is kept).
   */
  replacePolicies(policies: readonly KObject[]): void {
    if (policies.length > policiesPerSourceMax) throw new Error(`${policies.length} ValidatingAdmissionPolicies, more than the ${policiesPerSourceMax} a replica evaluates`);
    const next = new Map<string, CompiledPolicy>();
    for (const policy of [...policies].sort(byName)) {
      const known = this.compiled.get(policy.metadata.name ?? '');
      if (known !== undefined && known.key === policyKey(policy)) {
        next.set(known.name, known);
        continue;
      }
      const compiled = compileOne(policy);
      next.set(compiled.name, compiled);
    }
    this.compiled = next;
    this.policiesSynced = true;
    this.rebuild();
  }

  /** Replaces every binding with `bindings` (the full current set); copied and defaulted. Throws as replacePolicies. */
  replaceBindings(bindings: readonly KObject[]): void {
    if (bindings.length > policiesPerSourceMax) throw new Error(`${bindings.length} ValidatingAdmissionPolicyBindings, more than the ${policiesPerSourceMax} a replica evaluates`);
    this.bindings = [...bindings].sort(byName).map(bindingOf);
    this.bindingsSynced = true;
    this.rebuild();
  }

  /** The policies in name order, each with its bindings; the array is replaced, never changed. */
  snapshot(): readonly PolicyWithBindings[] {
    return this.current;
  }

  /** Whether both kinds were replaced once: before, requests are refused rather than let through unchecked. */
  hasSynced(): boolean {
    return this.policiesSynced && this.bindingsSynced;
  }

  /** Resolves true once synced, or false after `ms`. */
  waitSynced(ms: number): Promise<boolean> {
    if (this.hasSynced()) return Promise.resolve(true);
    return new Promise((resolve) => {
      const wake = (): void => {
        clearTimeout(timer);
        resolve(true);
      };
      const timer = setTimeout(() => {
        this.syncWaiters.delete(wake);
        resolve(this.hasSynced());
      }, ms);
      this.syncWaiters.add(wake);
    });
  }

  private rebuild(): void {
    const byPolicy = new Map<string, PolicyBinding[]>();
    for (const binding of this.bindings) {
      const name = binding.spec.policyName ?? '';
      const list = byPolicy.get(name) ?? [];
      list.push(binding);
      byPolicy.set(name, list);
    }
    this.current = [...this.compiled.values()].map((policy) => ({ policy, bindings: byPolicy.get(policy.name) ?? [] }));
    if (!this.hasSynced()) return;
    for (const wake of this.syncWaiters) wake();
    this.syncWaiters.clear();
  }
}
