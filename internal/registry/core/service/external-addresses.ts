// A Service's addresses outside the cluster as ValidateService (pkg/apis/core/validation, 1.28)
// checks them: each external IP an address that is not unspecified, loopback or link-local, and
// the load balancer's source ranges (the field, else the older annotation) a list of CIDRs, only
// for a LoadBalancer. 1.28 judges the ranges as one list, under the field's Go name.
import type { KObject } from '../../schema/declaration.ts';
import { forbidden, invalidValue, type FieldError } from '../../schema/field-errors.ts';
import { nonSpecialIpProblems, parseCidrSloppy, validateIpAddress } from '../../schema/ip-address.ts';
import type { ServiceSpec } from './spec.ts';

/** The annotation that said the source ranges before the field did. */
const sourceRangesAnnotation = 'service.beta.kubernetes.io/load-balancer-source-ranges';
const sourceRangesMessage = 'must be a list of IP ranges. For example, 10.240.0.0/24,10.250.0.0/24 ';

/** Go's %v of a []string: `[a b]`. */
const goList = (values: readonly unknown[]): string => `[${values.map(String).join(' ')}]`;

function validateSourceRanges(svc: KObject, spec: ServiceSpec): FieldError[] {
  const ranges = Array.isArray(spec.loadBalancerSourceRanges) ? spec.loadBalancerSourceRanges : [];
  const annotation = svc.metadata.annotations?.[sourceRangesAnnotation];
  if (ranges.length === 0 && annotation === undefined) return [];
  const [path, shown, list] =
    ranges.length > 0
      ? ['spec.LoadBalancerSourceRanges', goList(ranges), ranges]
      : [`metadata.annotations[${sourceRangesAnnotation}]`, String(annotation), String(annotation).trim() === '' ? [] : String(annotation).trim().split(',')];
  const errors: FieldError[] = [];
  if (spec.type !== 'LoadBalancer') errors.push(forbidden(path, "may only be used when `type` is 'LoadBalancer'"));
  if (list.some((r) => parseCidrSloppy(String(r).trim()) === undefined)) errors.push(invalidValue(path, shown, sourceRangesMessage));
  return errors;
}

/** The external IPs and load balancer source ranges of a Service. */
export function validateExternalAddresses(svc: KObject, spec: ServiceSpec): FieldError[] {
  const errors: FieldError[] = [];
  for (const [i, ip] of (Array.isArray(spec.externalIPs) ? spec.externalIPs : []).entries()) {
    const at = `spec.externalIPs[${i}]`;
    const invalid = validateIpAddress(at, ip);
    errors.push(...(invalid.length > 0 ? invalid : nonSpecialIpProblems(ip).map((p) => invalidValue(at, ip, p))));
  }
  return [...errors, ...validateSourceRanges(svc, spec)];
}
