// A pod's IPs as ValidatePodStatusUpdate's validatePodIPs (pkg/apis/core/validation, 1.28) checks
// them, on the internal form v1's conversion gives: status.podIP is podIPs[0], and wins when the
// two differ. Each an address; several only one per family, never twice.
import type { KObject } from '../schema/declaration.ts';
import { duplicate, invalidShown, type FieldError } from '../schema/field-errors.ts';
import { ipFamily, parseIpSloppy, validateIpAddress } from '../schema/ip-address.ts';
import { field } from '../schema/printers.ts';

/** The status IPs as the internal PodStatus holds them (Convert_v1_PodStatus_To_core_PodStatus). */
function internalPodIps(o: KObject): string[] {
  const listed = field(o, 'status.podIPs');
  const ips = (Array.isArray(listed) ? listed : []).map((p) => (typeof p === 'object' && p !== null ? String((p as { ip?: unknown }).ip ?? '') : ''));
  const podIp = field(o, 'status.podIP');
  if (typeof podIp === 'string' && podIp !== '' && (ips.length === 0 || ips[0] !== podIp)) return [podIp];
  return ips;
}

/** Go's %#v of one core.PodIP. */
const shownPodIp = (ip: string): string => `core.PodIP{IP:${JSON.stringify(ip)}}`;

/** validatePodIPs: status.podIPs (or status.podIP) are addresses, at most one per IP family. */
export function validatePodIps(o: KObject): FieldError[] {
  const ips = internalPodIps(o);
  const errors = ips.flatMap((ip, i) => validateIpAddress(`status.podIPs[${i}]`, ip));
  if (ips.length <= 1) return errors;
  const parsed = ips.map(parseIpSloppy);
  const families = new Set(parsed.map((ip) => (ip === undefined ? undefined : ipFamily(ip))));
  const dualStack = ips.length === 2 && !parsed.includes(undefined) && families.size === 2;
  if (!dualStack) errors.push(invalidShown('status.podIPs', `[]core.PodIP{${ips.map(shownPodIp).join(', ')}}`, 'may specify no more than one IP for each IP family'));
  const seen = new Set<string>();
  ips.forEach((ip, i) => {
    if (seen.has(ip)) errors.push({ ...duplicate(`status.podIPs[${i}]`, ip), message: `Duplicate value: ${shownPodIp(ip)}` });
    seen.add(ip);
  });
  return errors;
}
