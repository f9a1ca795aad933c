// What the RuntimeClass plugin does to a new pod: spec.overhead from the class's overhead.podFixed
// (a pod that states another overhead is refused), and the class's scheduling constraints merged
// into spec.nodeSelector (a conflicting value is refused) and spec.tolerations.
import type { KObject } from '../../../registry/schema/declaration.ts';
import type { AdmissionAttributes } from '../../attributes.ts';
import { admissionForbidden } from '../../forbidden.ts';
import { mergeTolerations } from './merge-tolerations.ts';
import { sameResourceList } from './resource-lists.ts';

type Fields = Record<string, unknown>;

function fieldsOf(value: unknown): Fields | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Fields) : undefined;
}

/** The pod's spec; with `create`, made an object when absent (the mutating phase may add to it). */
export function podSpec(pod: KObject, create: boolean): Fields {
  const spec = fieldsOf(pod.spec);
  if (spec !== undefined || !create) return spec ?? {};
  const created: Fields = {};
  pod.spec = created;
  return created;
}

const mismatch = "pod rejected: Pod's Overhead doesn't match RuntimeClass's defined Overhead";

/** Mutating: sets spec.overhead from the class's overhead (absent podFixed clears it, as kube does). */
export function setOverhead(attributes: AdmissionAttributes, spec: Fields, runtimeClass: KObject | undefined): void {
  const overhead = fieldsOf(runtimeClass?.overhead);
  if (overhead === undefined) return;
  const podFixed = fieldsOf(overhead.podFixed);
  const stated = spec.overhead;
  if (stated !== undefined && stated !== null && !sameResourceList(podFixed, stated)) throw admissionForbidden(attributes, mismatch);
  if (podFixed === undefined) delete spec.overhead;
  else spec.overhead = structuredClone(podFixed);
}

/** Validating: the pod's overhead is the class's, and a pod without such a class has none. */
export function validateOverhead(attributes: AdmissionAttributes, spec: Fields, runtimeClass: KObject | undefined): void {
  const overhead = fieldsOf(runtimeClass?.overhead);
  if (overhead !== undefined) {
    if (!sameResourceList(overhead.podFixed, spec.overhead)) throw admissionForbidden(attributes, mismatch);
  } else if (spec.overhead !== undefined && spec.overhead !== null) {
    throw admissionForbidden(attributes, 'pod rejected: Pod Overhead set without corresponding RuntimeClass defined Overhead');
  }
}

/** Mutating: adds the class's nodeSelector and tolerations to the pod's. */
export function setScheduling(attributes: AdmissionAttributes, spec: Fields, runtimeClass: KObject | undefined): void {
  const scheduling = fieldsOf(runtimeClass?.scheduling);
  if (scheduling === undefined) return;
  const classSelector = fieldsOf(scheduling.nodeSelector);
  const podSelector = fieldsOf(spec.nodeSelector);
  // Every conflict is checked before anything is assigned: a refused pod is left as it came.
  for (const [key, classValue] of Object.entries(podSelector === undefined ? {} : (classSelector ?? {}))) {
    const podValue = podSelector?.[key];
    if (podValue !== undefined && podValue !== classValue) {
      throw admissionForbidden(attributes, `conflict: runtimeClass.scheduling.nodeSelector[${key}] = ${String(classValue)}; pod.spec.nodeSelector[${key}] = ${String(podValue)}`);
    }
  }
  const selector = podSelector === undefined ? classSelector : { ...podSelector, ...classSelector };
  if (selector === undefined) delete spec.nodeSelector;
  else spec.nodeSelector = { ...selector };
  const podTolerations = Array.isArray(spec.tolerations) ? spec.tolerations : [];
  const classTolerations = Array.isArray(scheduling.tolerations) ? structuredClone(scheduling.tolerations) : [];
  const merged = mergeTolerations(podTolerations, classTolerations);
  if (merged.length === 0) delete spec.tolerations;
  else spec.tolerations = merged;
}
