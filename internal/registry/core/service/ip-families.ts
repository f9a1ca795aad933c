import { invalidShown, type FieldError } from '../../schema/field-errors.ts';
import { parseIp } from './ip-range.ts';
import { primaryFamily, rangeOf, type ServiceNetwork } from './network.ts';
import { clusterIpNone, clusterIpsOf, ipFamiliesOf, sameClusterIps, sameIpFamilies, selectorless, type ServiceSpec } from './spec.ts';

/** A Go string slice as field errors print it: `[]string{"a", "b"}`. */
export function goStrings(values: readonly string[]): string {
  return `[]string{${values.map((v) => JSON.stringify(v)).join(', ')}}`;
}

function policyShown(spec: ServiceSpec): string {
  return spec.ipFamilyPolicy === undefined ? 'null' : JSON.stringify(spec.ipFamilyPolicy);
}

function otherFamily(family: string): string {
  return family === 'IPv4' ? 'IPv6' : 'IPv4';
}

/** PreferDualStack on both sides with unchanged type, IPs and families: nothing to redo (no upgrade or downgrade after a cluster change). */
function matchingPreferDualStack(next: ServiceSpec, old: ServiceSpec | undefined): boolean {
  return old !== undefined && next.type === old.type && next.ipFamilyPolicy === 'PreferDualStack' && old.ipFamilyPolicy === 'PreferDualStack' && sameClusterIps(old, next) && sameIpFamilies(old, next);
}

function defaultPolicy(next: ServiceSpec, old: ServiceSpec | undefined): void {
  if (next.ipFamilyPolicy !== undefined) return;
  if (old?.ipFamilyPolicy !== undefined) next.ipFamilyPolicy = old.ipFamilyPolicy;
  else if (next.clusterIP === clusterIpNone && selectorless(next)) next.ipFamilyPolicy = 'RequireDualStack';
  else next.ipFamilyPolicy = 'SingleStack';
}

/** Update-only: SingleStack trims unchanged secondary values; any other policy may not drop them. */
function prepareUpdate(next: ServiceSpec, old: ServiceSpec, errors: FieldError[]): void {
  if (next.ipFamilyPolicy === 'SingleStack') {
    if (sameClusterIps(old, next) && clusterIpsOf(next).length > 1) next.clusterIPs = clusterIpsOf(next).slice(0, 1);
    if (sameIpFamilies(old, next) && ipFamiliesOf(next).length > 1) next.ipFamilies = ipFamiliesOf(next).slice(0, 1);
    return;
  }
  const reduced = (a: readonly string[], b: readonly string[]): boolean => a.length > 0 && a.length < b.length;
  if (reduced(clusterIpsOf(next), clusterIpsOf(old))) errors.push(invalidShown('spec.ipFamilyPolicy', policyShown(next), "must be 'SingleStack' to release the secondary cluster IP"));
  if (reduced(ipFamiliesOf(next), ipFamiliesOf(old))) errors.push(invalidShown('spec.ipFamilyPolicy', policyShown(next), "must be 'SingleStack' to release the secondary IP family"));
}

/** Infers ipFamilies from given clusterIPs (an address of an unconfigured family is an error). */
function inferFamilies(next: ServiceSpec, network: ServiceNetwork, errors: FieldError[]): void {
  const ips = clusterIpsOf(next);
  for (const [i, ip] of ips.entries()) {
    if (ip === clusterIpNone) break;
    const family = parseIp(ip)?.family;
    if (family === undefined || i < ipFamiliesOf(next).length) continue;
    if (rangeOf(network, family) === undefined) errors.push(invalidShown(`spec.clusterIPs[${i}]`, goStrings(ips), `${family} is not configured on this cluster`));
    else next.ipFamilies = [...ipFamiliesOf(next), family];
  }
}

/**
 * Sets ipFamilyPolicy and ipFamilies from the request and the cluster's ranges, as
 * kube-apiserver's initIPFamilyFields (pkg/registry/core/service/storage/alloc.go, 1.28): policy
 * SingleStack unless asked (RequireDualStack for headless selectorless Services; an update
 * keeps the stored one), families from the given IPs, else the primary range's, plus the
 * other family for dual-stack policies on a dual-stack cluster. Returns field errors (none for
 * ExternalName, which has no families).
 */
export function initIpFamilies(next: ServiceSpec, old: ServiceSpec | undefined, network: ServiceNetwork): FieldError[] {
  if (next.type === 'ExternalName' || matchingPreferDualStack(next, old)) return [];
  defaultPolicy(next, old);
  const errors: FieldError[] = [];
  if (old !== undefined) prepareUpdate(next, old, errors);
  if (next.ipFamilyPolicy === 'SingleStack') {
    if (clusterIpsOf(next).length === 2) errors.push(invalidShown('spec.ipFamilyPolicy', policyShown(next), "must be 'RequireDualStack' or 'PreferDualStack' when multiple cluster IPs are specified"));
    if (ipFamiliesOf(next).length === 2) errors.push(invalidShown('spec.ipFamilyPolicy', policyShown(next), "must be 'RequireDualStack' or 'PreferDualStack' when multiple IP families are specified"));
  }
  inferFamilies(next, network, errors);
  if (errors.length > 0) return errors;
  if (next.clusterIP === clusterIpNone && selectorless(next)) {
    // Headless and selectorless: any families may be asked for, even on a single-stack cluster.
    if (ipFamiliesOf(next).length === 0) next.ipFamilies = [primaryFamily(network)];
    const [first = ''] = ipFamiliesOf(next);
    if (ipFamiliesOf(next).length < 2 && next.ipFamilyPolicy !== 'SingleStack') next.ipFamilies = [first, otherFamily(first)];
    return [];
  }
  if (next.ipFamilyPolicy === 'RequireDualStack' && network.ipRanges.length < 2) {
    errors.push(invalidShown('spec.ipFamilyPolicy', policyShown(next), 'this cluster is not configured for dual-stack services'));
  }
  for (const [i, family] of ipFamiliesOf(next).entries()) {
    if (rangeOf(network, family) === undefined) errors.push(invalidShown(`spec.ipFamilies[${i}]`, JSON.stringify(family), 'not configured on this cluster'));
  }
  if (errors.length > 0) return errors;
  if (ipFamiliesOf(next).length === 0) next.ipFamilies = [primaryFamily(network)];
  const [first = ''] = ipFamiliesOf(next);
  if (next.ipFamilyPolicy !== 'SingleStack' && ipFamiliesOf(next).length === 1 && network.ipRanges.length === 2) next.ipFamilies = [first, otherFamily(first)];
  return [];
}
