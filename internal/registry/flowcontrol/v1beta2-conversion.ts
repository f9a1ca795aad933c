// FlowSchemas and PriorityLevelConfigurations served as flowcontrol.apiserver.k8s.io/v1beta2 from
// the v1beta3 collections, as kube-apiserver 1.28 serves both: the versions differ only in the name
// of a limited level's concurrency shares (v1beta2 assuredConcurrencyShares, v1beta3
// nominalConcurrencyShares).
import type { KObject } from '../schema/declaration.ts';
import { obj } from './values.ts';

/** A v1beta3 spec with its limited shares named as v1beta2 names them (a new object). */
export function v1beta3SpecAsV1beta2(spec: Record<string, unknown>): Record<string, unknown> {
  const limited = obj(spec.limited);
  if (!('nominalConcurrencyShares' in limited)) return structuredClone(spec);
  const { nominalConcurrencyShares, ...rest } = structuredClone(limited);
  return { ...structuredClone(spec), limited: { assuredConcurrencyShares: nominalConcurrencyShares, ...rest } };
}

/** A v1beta2 spec with its limited shares named as v1beta3 names them (a new object). */
export function v1beta2SpecAsV1beta3(spec: Record<string, unknown>): Record<string, unknown> {
  const limited = obj(spec.limited);
  if (!('assuredConcurrencyShares' in limited)) return structuredClone(spec);
  const { assuredConcurrencyShares, ...rest } = structuredClone(limited);
  return { ...structuredClone(spec), limited: { nominalConcurrencyShares: assuredConcurrencyShares, ...rest } };
}

/** A copy of a v1beta2 object with the apiVersion of its stored (v1beta3) form; the two FlowSchema versions differ in nothing else. */
export function asV1beta3(o: KObject): KObject {
  const out = structuredClone(o);
  if (typeof out.apiVersion === 'string') out.apiVersion = out.apiVersion.replace(/\/v1beta2$/, '/v1beta3');
  return out;
}

/** The stored (v1beta3) form of a v1beta2 PriorityLevelConfiguration (a new object). */
export function priorityLevelFromV1beta2(o: KObject): KObject {
  const out = asV1beta3(o);
  if (typeof o.spec === 'object' && o.spec !== null && !Array.isArray(o.spec)) out.spec = v1beta2SpecAsV1beta3(o.spec as Record<string, unknown>);
  return out;
}

/** The v1beta2 form of a stored (v1beta3) PriorityLevelConfiguration (a new object). */
export function priorityLevelToV1beta2(o: KObject): KObject {
  const out = structuredClone(o);
  if (typeof o.spec === 'object' && o.spec !== null && !Array.isArray(o.spec)) out.spec = v1beta3SpecAsV1beta2(o.spec as Record<string, unknown>);
  return out;
}
