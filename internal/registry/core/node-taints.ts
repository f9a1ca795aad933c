// A Node's taint effects as kube-apiserver 1.28 checks them (validateNodeTaints, validateTaintEffect):
// required, and one of the three effects in kube's order.
import type { KObject } from '../schema/declaration.ts';
import { notSupported, required, type FieldError } from '../schema/field-errors.ts';
import { field } from '../schema/printers.ts';

const taintEffects = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'];

/** The effect of each of `spec.taints`: set, and NoSchedule, PreferNoSchedule or NoExecute. */
export function validateNodeTaintEffects(o: KObject): FieldError[] {
  const taints = field(o, 'spec.taints');
  if (!Array.isArray(taints)) return [];
  return taints.flatMap((t: { effect?: unknown } | null, i) => {
    const effect = t?.effect ?? '';
    const at = `spec.taints[${i}].effect`;
    if (effect === '') return [required(at)];
    return taintEffects.includes(effect as string) ? [] : [notSupported(at, effect, taintEffects)];
  });
}
