// One request against a namespace's quotas (the quota admission's CheckRequest, kube 1.28): which
// quotas apply, whether the object may be charged to them, and what each one's status.used becomes
// if it is. Pure: it returns new quota objects and throws the refusal kube returns.
import type { AdmissionAttributes } from '../../attributes.ts';
import { admissionForbidden } from '../../forbidden.ts';
import type { KObject } from '../../../registry/schema/declaration.ts';
import { StatusError } from '../../../registry/errors/status-error.ts';
import {
  formatRequirement,
  hardResourceNames,
  matchingScopes,
  quotaMatches,
  quotaScopeRequirements,
  uncoveredScopes,
  type QuotaEvaluator,
  type ScopeRequirement,
} from '../../../quota/evaluator.ts';
import {
  addLists,
  exceededNames,
  maskList,
  negativeNames,
  parseResourceList,
  prettyPrint,
  prettyPrintNames,
  removeZeros,
  resourceListToJson,
  subtractNonNegative,
  type ResourceList,
} from '../../../quota/resource-list.ts';
import type { LimitedResource } from './configuration.ts';
import { limitedNames, limitedScopes } from './limited-resources.ts';

type Json = Record<string, unknown>;

/** A quota's status.hard or status.used. */
export function statusList(quota: KObject, key: 'hard' | 'used'): ResourceList {
  return parseResourceList((quota.status as Json | undefined)?.[key]);
}

function hasUsedEntry(quota: KObject, name: string): boolean {
  const used = (quota.status as Json | undefined)?.used;
  return typeof used === 'object' && used !== null && Object.hasOwn(used, name);
}

/** The quotas that apply, after the per-quota refusals (constraints, usage not yet known). */
function applicableQuotas(quotas: readonly KObject[], a: AdmissionAttributes, evaluator: QuotaEvaluator, object: KObject) {
  const indexes: number[] = [];
  const restricted = new Set<string>();
  const scopes: ScopeRequirement[] = [];
  quotas.forEach((quota, i) => {
    scopes.push(...matchingScopes(evaluator, object, quotaScopeRequirements(quota)));
    if (!quotaMatches(evaluator, quota, object)) return;
    const hard = hardResourceNames(quota);
    const names = evaluator.matchingResources(hard);
    const name = quota.metadata.name ?? '';
    const why = evaluator.constraints(names, object);
    if (why !== undefined) throw admissionForbidden(a, `failed quota: ${name}: ${why}`);
    if (hard.some((h) => names.includes(h) && !hasUsedEntry(quota, h))) {
      throw admissionForbidden(a, `status unknown for quota: ${name}, resources: ${prettyPrintNames(names)}`);
    }
    indexes.push(i);
    for (const n of names) restricted.add(n);
  });
  return { indexes, restricted, scopes };
}

/** What the request adds: the object's usage, less the stored object's on a real update. */
function requestDelta(a: AdmissionAttributes, evaluator: QuotaEvaluator, object: KObject, nowMs: number): ResourceList {
  let delta = evaluator.usage(object, nowMs);
  const negative = negativeNames(delta);
  if (negative.length > 0) throw admissionForbidden(a, `quota usage is negative for resource(s): ${prettyPrintNames(negative)}`);
  if (a.operation === 'UPDATE') {
    if (a.oldObject === undefined) throw admissionForbidden(a, 'unable to get previous usage since prior version of object was not found');
    // Without a resourceVersion the update creates the object: charge it in full.
    if ((a.oldObject.metadata.resourceVersion ?? '') !== '') delta = subtractNonNegative(delta, evaluator.usage(a.oldObject, nowMs));
  }
  return removeZeros(delta);
}

/** The quota with the delta charged, or the "exceeded quota" refusal. */
function charged(a: AdmissionAttributes, quota: KObject, delta: ResourceList): KObject {
  const hard = statusList(quota, 'hard');
  const used = statusList(quota, 'used');
  const requested = maskList(delta, hard.keys());
  const newUsed = addLists(used, requested);
  const exceeded = exceededNames(maskList(newUsed, requested.keys()), hard);
  if (exceeded.length > 0) {
    const name = quota.metadata.name ?? '';
    const [req, was, lim] = [requested, used, hard].map((l) => prettyPrint(maskList(l, exceeded)));
    throw admissionForbidden(a, `exceeded quota: ${name}, requested: ${req}, used: ${was}, limited: ${lim}`);
  }
  return { ...quota, status: { ...((quota.status as Json | undefined) ?? {}), used: resourceListToJson(newUsed) } };
}

/** What checkRequest needs besides the quotas. */
export interface CheckInput {
  readonly attributes: AdmissionAttributes;
  readonly evaluator: QuotaEvaluator;
  readonly limited: readonly LimitedResource[];
  readonly nowMs: number;
}

/**
 * The quotas as they would be with the request charged (the same array when nothing changes);
 * throws the StatusError kube refuses with.
 */
export function checkRequest(quotas: readonly KObject[], { attributes: a, evaluator, limited, nowMs }: CheckInput): readonly KObject[] {
  const object = a.object;
  if (object === undefined || !evaluator.handles(a.operation)) return quotas;
  const scopesLimited = limitedScopes(evaluator, object, limited);
  const namesLimited = limitedNames(evaluator, object, limited, nowMs);
  const { indexes, restricted, scopes } = applicableQuotas(quotas, a, evaluator, object);
  const delta = requestDelta(a, evaluator, object, nowMs);
  if (delta.size === 0) return quotas;
  const uncoveredNames = [...namesLimited].filter((n) => !restricted.has(n));
  if (uncoveredNames.length > 0) throw admissionForbidden(a, `insufficient quota to consume: ${prettyPrintNames(uncoveredNames)}`);
  const uncovered = uncoveredScopes(scopesLimited, scopes);
  // kube returns this one as a plain error, which the API answers as a 500 with no reason.
  if (uncovered.length > 0) throw new StatusError(500, '', `insufficient quota to match these scopes: [${uncovered.map(formatRequirement).join(' ')}]`);
  if (indexes.length === 0) return quotas;
  const out = [...quotas];
  for (const i of indexes) {
    const quota = out[i];
    if (quota !== undefined) out[i] = charged(a, quota, delta);
  }
  return out;
}
