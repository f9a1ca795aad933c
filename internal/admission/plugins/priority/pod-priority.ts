// The Priority plugin's pod side: on create, spec.priority and spec.preemptionPolicy come from
// spec.priorityClassName (or the global default class, or 0); a pod that states other values is
// refused. On update the values set at create are carried over when a client dropped them (pod
// validation forbids changing them, so only an omission needs repair).
import { internalError } from '../../../registry/errors/status-error.ts';
import type { AdmissionAttributes } from '../../attributes.ts';
import { admissionForbidden } from '../../forbidden.ts';
import type { ObjectReader } from '../../plugin.ts';
import { defaultPriorityWhenNoDefaultClassExists, findDefaultPriorityClass, findPriorityClass, resolvedFrom, type ResolvedPriority } from './priority-classes.ts';

type PodSpec = Record<string, unknown>;

function specOf(object: Record<string, unknown> | undefined): PodSpec | undefined {
  const spec = object?.spec;
  return typeof spec === 'object' && spec !== null && !Array.isArray(spec) ? (spec as PodSpec) : undefined;
}

function isUnset(value: unknown): boolean {
  return value === undefined || value === null;
}

/** Keeps what create set when an update leaves it out. */
export function keepPriorityOnUpdate(attributes: AdmissionAttributes): void {
  const spec = specOf(attributes.object);
  const old = specOf(attributes.oldObject);
  if (spec === undefined || old === undefined) return;
  if (isUnset(spec.priority) && !isUnset(old.priority)) spec.priority = old.priority;
  if (isUnset(spec.preemptionPolicy) && !isUnset(old.preemptionPolicy)) spec.preemptionPolicy = old.preemptionPolicy;
}

async function resolve(attributes: AdmissionAttributes, objects: ObjectReader, apiDomain: string, className: string): Promise<ResolvedPriority> {
  if (className === '') {
    let pc;
    try {
      pc = await findDefaultPriorityClass(objects, apiDomain, false);
    } catch (err) {
      throw internalError(`failed to get default priority class: ${err instanceof Error ? err.message : String(err)}`);
    }
    return pc === undefined ? { className: '', value: defaultPriorityWhenNoDefaultClassExists, preemptionPolicy: undefined } : resolvedFrom(pc);
  }
  let found;
  try {
    found = await findPriorityClass(objects, apiDomain, className);
  } catch (err) {
    throw internalError(`failed to get PriorityClass with name ${className}: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (found === undefined) throw admissionForbidden(attributes, `no PriorityClass with name ${className} was found`);
  return found;
}

/** Resolves a new pod's priority and preemption policy from its class; 403 on an unknown class or a contradicting value. */
export async function admitNewPod(attributes: AdmissionAttributes, objects: ObjectReader, apiDomain: string): Promise<void> {
  const spec = specOf(attributes.object);
  if (spec === undefined) return;
  const named = typeof spec.priorityClassName === 'string' ? spec.priorityClassName : '';
  const resolved = await resolve(attributes, objects, apiDomain, named);
  if (named === '' && resolved.className !== '') spec.priorityClassName = resolved.className;
  if (!isUnset(spec.priority) && spec.priority !== resolved.value) {
    throw admissionForbidden(attributes, `the integer value of priority (${String(spec.priority)}) must not be provided in pod spec; priority admission controller computed ${resolved.value} from the given PriorityClass name`);
  }
  spec.priority = resolved.value;
  if (resolved.preemptionPolicy === undefined) return;
  if (!isUnset(spec.preemptionPolicy) && spec.preemptionPolicy !== resolved.preemptionPolicy) {
    throw admissionForbidden(attributes, `the string value of PreemptionPolicy (${String(spec.preemptionPolicy)}) must not be provided in pod spec; priority admission controller computed ${resolved.preemptionPolicy} from the given PriorityClass name`);
  }
  spec.preemptionPolicy = resolved.preemptionPolicy;
}
