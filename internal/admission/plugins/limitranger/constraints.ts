// The checks of one LimitRange bound against one request/limit pair, worded as kube-apiserver
// 1.28's LimitRanger words them (minConstraint, maxConstraint, maxRequestConstraint,
// limitRequestRatioConstraint). Values compare in thousandths unless one is too large for that.
import {
  formatQuantity,
  integerValue,
  milliValue,
  zeroQuantity,
  type QuantityValue,
} from '../../../registry/schema/quantity-arithmetic.ts';
import type { ResourceList } from '../../../quota/resource-list.ts';

/** resource.MaxMilliValue: the largest value whose thousandths fit in an int64. */
const maxMilliValue = 9223372036854775807n / 1000n;

/** Request, limit and bound at one precision (requestLimitEnforcedValues): thousandths when all fit. */
function atCommonPrecision(request: QuantityValue, limit: QuantityValue, enforced: QuantityValue): [bigint, bigint, bigint] {
  const whole = [integerValue(request), integerValue(limit), integerValue(enforced)] as const;
  if (whole.every((v) => v <= maxMilliValue)) return [milliValue(request), milliValue(limit), milliValue(enforced)];
  return [...whole];
}

/** What a check is given: the limit type and resource it is about, the bound, and what the object states. */
export interface ConstraintInput {
  readonly limitType: string;
  readonly resource: string;
  readonly enforced: QuantityValue;
  readonly requests: ResourceList;
  readonly limits: ResourceList;
}

/** The request and the limit must be at least the bound; a request must be stated. */
export function minConstraint({ limitType, resource, enforced, requests, limits }: ConstraintInput): string | undefined {
  const request = requests.get(resource);
  const limit = limits.get(resource);
  const [req, lim, bound] = atCommonPrecision(request ?? zeroQuantity, limit ?? zeroQuantity, enforced);
  const shown = formatQuantity(enforced);
  if (request === undefined) return `minimum ${resource} usage per ${limitType} is ${shown}.  No request is specified`;
  if (req < bound) return `minimum ${resource} usage per ${limitType} is ${shown}, but request is ${formatQuantity(request)}`;
  if (limit !== undefined && lim < bound) return `minimum ${resource} usage per ${limitType} is ${shown}, but limit is ${formatQuantity(limit)}`;
  return undefined;
}

/** The limit and the request must be at most the bound; a limit must be stated. */
export function maxConstraint({ limitType, resource, enforced, requests, limits }: ConstraintInput): string | undefined {
  const request = requests.get(resource);
  const limit = limits.get(resource);
  const [req, lim, bound] = atCommonPrecision(request ?? zeroQuantity, limit ?? zeroQuantity, enforced);
  const shown = formatQuantity(enforced);
  if (limit === undefined) return `maximum ${resource} usage per ${limitType} is ${shown}.  No limit is specified`;
  if (lim > bound) return `maximum ${resource} usage per ${limitType} is ${shown}, but limit is ${formatQuantity(limit)}`;
  if (request !== undefined && req > bound) return `maximum ${resource} usage per ${limitType} is ${shown}, but request is ${formatQuantity(request)}`;
  return undefined;
}

/** The request must be at most the bound (claims, whose limits are not user input). */
export function maxRequestConstraint({ limitType, resource, enforced, requests }: ConstraintInput): string | undefined {
  const request = requests.get(resource);
  const [req, , bound] = atCommonPrecision(request ?? zeroQuantity, zeroQuantity, enforced);
  const shown = formatQuantity(enforced);
  if (request === undefined) return `maximum ${resource} usage per ${limitType} is ${shown}.  No request is specified`;
  if (req > bound) return `maximum ${resource} usage per ${limitType} is ${shown}, but request is ${formatQuantity(request)}`;
  return undefined;
}

/** limit / request must be at most the bound; both must be stated and non-zero. */
export function ratioConstraint({ limitType, resource, enforced, requests, limits }: ConstraintInput): string | undefined {
  const request = requests.get(resource);
  const limit = limits.get(resource);
  const [req, lim] = atCommonPrecision(request ?? zeroQuantity, limit ?? zeroQuantity, enforced);
  const shown = formatQuantity(enforced);
  if (request === undefined || req === 0n) return `${resource} max limit to request ratio per ${limitType} is ${shown}, but no request is specified or request is 0`;
  if (limit === undefined || lim === 0n) return `${resource} max limit to request ratio per ${limitType} is ${shown}, but no limit is specified or limit is 0`;
  // kube compares in float64, the ratio scaled by 1000 against the bound's thousandths.
  const ratio = Number(lim) / Number(req);
  const boundWhole = integerValue(enforced);
  const [observed, bound] = boundWhole <= maxMilliValue ? [ratio * 1000, Number(milliValue(enforced))] : [ratio, Number(boundWhole)];
  if (observed > bound) return `${resource} max limit to request ratio per ${limitType} is ${shown}, but provided ratio is ${ratio.toFixed(6)}`;
  return undefined;
}
