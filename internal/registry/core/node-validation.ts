// A Node's pod CIDRs as ValidateNode (pkg/apis/core/validation, 1.28) checks them, on the internal
// form v1's conversion gives (spec.podCIDR stands for spec.podCIDRs when those are not given):
// each a CIDR, several only one per family, never twice.
import type { KObject } from '../schema/declaration.ts';
import { invalidShown, type FieldError } from '../schema/field-errors.ts';
import { ipFamily, parseCidrSloppy } from '../schema/ip-address.ts';
import { field } from '../schema/printers.ts';
import { goStrings } from './service/ip-families.ts';

/** spec.podCIDRs as the internal NodeSpec holds them (Convert_v1_NodeSpec_To_core_NodeSpec). */
function internalPodCidrs(o: KObject): string[] {
  const listed = field(o, 'spec.podCIDRs');
  const cidrs = (Array.isArray(listed) ? listed : []).map(String);
  const single = field(o, 'spec.podCIDR');
  return cidrs.length === 0 && typeof single === 'string' && single !== '' ? [single] : cidrs;
}

/** The pod CIDRs of a Node: valid, one per IP family, no duplicates. */
export function validateNodePodCidrs(o: KObject): FieldError[] {
  const cidrs = internalPodCidrs(o);
  const shown = goStrings(cidrs);
  const parsed = cidrs.map(parseCidrSloppy);
  const errors: FieldError[] = [];
  parsed.forEach((cidr, i) => {
    if (cidr === undefined) errors.push(invalidShown(`spec.podCIDRs[${i}]`, shown, 'must be valid CIDR'));
  });
  if (cidrs.length <= 1) return errors;
  const dualStack = cidrs.length === 2 && parsed[0] !== undefined && parsed[1] !== undefined && ipFamily(parsed[0].network) !== ipFamily(parsed[1].network);
  if (!dualStack) errors.push(invalidShown('spec.podCIDRs', shown, 'may specify no more than one CIDR for each IP family'));
  const seen = new Set<string>();
  cidrs.forEach((cidr, i) => {
    if (seen.has(cidr)) errors.push({ type: 'FieldValueDuplicate', field: `spec.podCIDRs[${i}]`, message: `Duplicate value: ${JSON.stringify(cidr)}` });
    seen.add(cidr);
  });
  return errors;
}
