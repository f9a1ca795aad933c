// Name, port and address rules of apimachinery's util/validation that networking kinds (and
// EndpointSlices) use, with its messages.
import { isIP } from 'node:net';
import { invalidValue, type FieldError } from '../schema/field-errors.ts';

const dns1035Re = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;
const wildcardRe = /^\*\.[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/** Problems with a DNS-1035 label (a Service name); empty when valid. */
export function dns1035Label(value: string): string[] {
  const errs: string[] = [];
  if (value.length > 63) errs.push('must be no more than 63 characters');
  if (!dns1035Re.test(value)) {
    errs.push("a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')");
  }
  return errs;
}

/** Problems with a wildcard DNS-1123 subdomain (`*.example.com`); empty when valid. */
export function wildcardSubdomain(value: string): string[] {
  const errs: string[] = [];
  if (value.length > 253) errs.push('must be no more than 253 characters');
  if (!wildcardRe.test(value)) {
    errs.push("a wildcard DNS-1123 subdomain must start with '*.', followed by a valid DNS subdomain, which must consist of lower case alphanumeric characters, '-' or '.' and end with an alphanumeric character (e.g. '*.example.com', regex used for validation is '\\*\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')");
  }
  return errs;
}

/** Problems with a port number; empty when it is 1 to 65535. */
export function portNumber(value: number): string[] {
  return Number.isInteger(value) && value >= 1 && value <= 65535 ? [] : ['must be between 1 and 65535, inclusive'];
}

/** Whether `value` is an IP address, as Go's sloppy parser reads one (IPv4 parts may have leading zeros). */
export function parseIPVersion(value: string): 4 | 6 | 0 {
  if (/^\d{1,3}(\.\d{1,3}){3}$/.test(value)) return value.split('.').every((p) => Number(p) <= 255) ? 4 : 0;
  return isIP(value) === 6 ? 6 : 0;
}

/** An IPv4 or IPv6 address as bytes (IPv4 as 4 bytes), or undefined. */
function ipBytes(value: string): number[] | undefined {
  const version = parseIPVersion(value);
  if (version === 4) return value.split('.').map(Number);
  if (version !== 6) return undefined;
  let text = value;
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  let tail: number[] = [];
  if (v4) {
    tail = (v4[1] ?? '').split('.').map(Number);
    text = text.slice(0, -(v4[1] ?? '').length) + '0:0';
  }
  const [head = '', rest] = text.split('::');
  const groups = (s: string): string[] => (s === '' ? [] : s.split(':'));
  const left = groups(head);
  const right = rest === undefined ? [] : groups(rest);
  const all = [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  const bytes = all.flatMap((g) => {
    const n = parseInt(g, 16);
    return [n >> 8, n & 255];
  });
  if (tail.length === 4) bytes.splice(12, 4, ...tail);
  return bytes;
}

/** A CIDR (`10.0.0.0/8`) as its network bytes and prefix length, or undefined when malformed. */
export function parseCIDR(value: string): { bytes: number[]; prefix: number } | undefined {
  const slash = value.indexOf('/');
  if (slash < 0) return undefined;
  const bytes = ipBytes(value.slice(0, slash));
  const prefixText = value.slice(slash + 1);
  if (bytes === undefined || !/^\d+$/.test(prefixText)) return undefined;
  const prefix = Number(prefixText);
  return prefix <= bytes.length * 8 ? { bytes, prefix } : undefined;
}

/** Whether the address `bytes` lies in the network `cidr` (same family). */
export function cidrContains(cidr: { bytes: number[]; prefix: number }, bytes: readonly number[]): boolean {
  if (bytes.length !== cidr.bytes.length) return false;
  for (let bit = 0; bit < cidr.prefix; bit++) {
    const mask = 0x80 >> bit % 8;
    if (((cidr.bytes[bit >> 3] ?? 0) & mask) !== ((bytes[bit >> 3] ?? 0) & mask)) return false;
  }
  return true;
}

/** Invalid-value errors for each problem of `value` under a rule. */
export function problemsAt(path: string, value: unknown, problems: readonly string[]): FieldError[] {
  return problems.map((p) => invalidValue(path, value, p));
}
