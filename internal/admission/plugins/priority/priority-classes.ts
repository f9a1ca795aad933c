// The PriorityClass lookups the Priority plugin makes: one class by name, and the global default.
import { systemPriorityClasses } from '../../../registry/scheduling/priorityclasses.ts';
import type { KObject } from '../../../registry/schema/declaration.ts';
import type { GroupResourceName, ObjectReader } from '../../plugin.ts';

/** What a pod takes from a class. */
export interface ResolvedPriority {
  /** The class's name ('' when no class applies). */
  readonly className: string;
  readonly value: number;
  /** Undefined when the class sets none (or no class applies). */
  readonly preemptionPolicy: string | undefined;
}

/** The priority of a pod no class applies to (scheduling.DefaultPriorityWhenNoDefaultClassExists). */
export const defaultPriorityWhenNoDefaultClassExists = 0;

/** scheduling.<domain>/priorityclasses. */
export function priorityClassesResource(apiDomain: string): GroupResourceName {
  return { group: `scheduling.${apiDomain}`, resource: 'priorityclasses' };
}

/** A class object as the plugin reads it. */
export function resolvedFrom(pc: KObject): ResolvedPriority {
  return {
    className: pc.metadata.name ?? '',
    value: typeof pc.value === 'number' ? pc.value : 0,
    preemptionPolicy: typeof pc.preemptionPolicy === 'string' ? pc.preemptionPolicy : undefined,
  };
}

/**
 * The class `name`: this replica's copy, else the leader's (a class just created is not refused
 * on a lagging replica). kube-apiserver stores the two system classes at start; when they are not
 * stored here, their fixed values answer. Undefined when there is no such class.
 */
export async function findPriorityClass(objects: ObjectReader, apiDomain: string, name: string): Promise<ResolvedPriority | undefined> {
  const gr = priorityClassesResource(apiDomain);
  const found = (await objects.get(gr, undefined, name)) ?? (await objects.get(gr, undefined, name, { consistent: true }));
  if (found !== undefined) return resolvedFrom(found);
  const systemValue = systemPriorityClasses[name];
  return systemValue === undefined ? undefined : { className: name, value: systemValue, preemptionPolicy: 'PreemptLowerPriority' };
}

/**
 * The global default class: among classes with globalDefault (several can exist after a race),
 * the one with the lowest value, the first listed on a tie. Undefined when none is marked.
 */
export async function findDefaultPriorityClass(objects: ObjectReader, apiDomain: string, consistent: boolean): Promise<KObject | undefined> {
  const classes = await objects.list(priorityClassesResource(apiDomain), undefined, consistent ? { consistent: true } : undefined);
  let chosen: KObject | undefined;
  for (const pc of classes) {
    if (pc.globalDefault !== true) continue;
    if (chosen === undefined || resolvedFrom(chosen).value > resolvedFrom(pc).value) chosen = pc;
  }
  return chosen;
}
