// IP addresses and CIDRs as kube-apiserver v1.28 reads them: k8s.io/utils/net's ParseIPSloppy and
// ParseCIDRSloppy (Go 1.16's net.ParseIP and ParseCIDR, which take IPv4 parts with leading zeros
// as decimal), and the checks of apimachinery's IsValidIP and core's ValidateNonSpecialIP with
// their messages.
import { invalidValue, type FieldError } from './field-errors.ts';

/** IsValidIP's message. */
export const validIpMessage = 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)';

/** An address as Go's net.IP holds it: 16 bytes, IPv4 as ::ffff:a.b.c.d. */
export type IpBytes = readonly number[];

const tooBig = 0xffffff;

/** Go's dtoi: the decimal number at the start of `s` and the characters it takes. */
function decimalPrefix(s: string): { value: number; length: number } | undefined {
  let value = 0;
  let i = 0;
  for (; i < s.length && s[i]! >= '0' && s[i]! <= '9'; i++) {
    value = value * 10 + Number(s[i]);
    if (value >= tooBig) return undefined;
  }
  return i === 0 ? undefined : { value, length: i };
}

/** Go's xtoi: the hexadecimal number at the start of `s` and the characters it takes. */
function hexPrefix(s: string): { value: number; length: number } | undefined {
  let value = 0;
  let i = 0;
  for (; i < s.length && /[0-9a-fA-F]/.test(s[i]!); i++) {
    value = value * 16 + Number.parseInt(s[i]!, 16);
    if (value >= tooBig) return undefined;
  }
  return i === 0 ? undefined : { value, length: i };
}

function parseIpv4(text: string): IpBytes | undefined {
  const bytes: number[] = [];
  let s = text;
  for (let i = 0; i < 4; i++) {
    if (s === '') return undefined;
    if (i > 0) {
      if (s[0] !== '.') return undefined;
      s = s.slice(1);
    }
    const part = decimalPrefix(s);
    if (part === undefined || part.value > 0xff) return undefined;
    bytes.push(part.value);
    s = s.slice(part.length);
  }
  return s === '' ? [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, ...bytes] : undefined;
}

function parseIpv6(text: string): IpBytes | undefined {
  const ip = Array<number>(16).fill(0);
  let s = text;
  let ellipsis = -1;
  if (s.startsWith('::')) {
    ellipsis = 0;
    s = s.slice(2);
    if (s === '') return ip;
  }
  let i = 0;
  while (i < 16) {
    const group = hexPrefix(s);
    if (group === undefined || group.value > 0xffff) return undefined;
    if (s[group.length] === '.') {
      if ((ellipsis < 0 && i !== 12) || i + 4 > 16) return undefined;
      const v4 = parseIpv4(s);
      if (v4 === undefined) return undefined;
      ip.splice(i, 4, ...v4.slice(12));
      s = '';
      i += 4;
      break;
    }
    ip[i] = group.value >> 8;
    ip[i + 1] = group.value & 0xff;
    i += 2;
    s = s.slice(group.length);
    if (s === '') break;
    if (s[0] !== ':' || s.length === 1) return undefined;
    s = s.slice(1);
    if (s[0] === ':') {
      if (ellipsis >= 0) return undefined;
      ellipsis = i;
      s = s.slice(1);
      if (s === '') break;
    }
  }
  if (s !== '') return undefined;
  if (i < 16) {
    if (ellipsis < 0) return undefined;
    const moved = ip.slice(ellipsis, i);
    ip.fill(0, ellipsis);
    ip.splice(16 - moved.length, moved.length, ...moved);
  } else if (ellipsis >= 0) return undefined;
  return ip;
}

/** An address as ParseIPSloppy reads it, or undefined when it is none (no zones, no brackets). */
export function parseIpSloppy(text: string): IpBytes | undefined {
  for (const c of text) {
    if (c === '.') return parseIpv4(text);
    if (c === ':') return parseIpv6(text);
  }
  return undefined;
}

/** The family of an address (Go's To4: an IPv4-mapped IPv6 address counts as IPv4). */
export function ipFamily(ip: IpBytes): 'IPv4' | 'IPv6' {
  return ip.slice(0, 10).every((b) => b === 0) && ip[10] === 0xff && ip[11] === 0xff ? 'IPv4' : 'IPv6';
}

/** A network as ParseCIDRSloppy reads it: its address family, its masked address and prefix length. */
export interface Cidr {
  readonly family: 'IPv4' | 'IPv6';
  readonly network: IpBytes;
  readonly prefix: number;
}

/** A CIDR as ParseCIDRSloppy reads it (IPv4 prefixes count from the IPv4 bits), or undefined. */
export function parseCidrSloppy(text: string): Cidr | undefined {
  const slash = text.indexOf('/');
  if (slash < 0) return undefined;
  const address = text.slice(0, slash);
  const maskText = text.slice(slash + 1);
  const v4 = parseIpv4(address);
  const ip = v4 ?? parseIpv6(address);
  const mask = decimalPrefix(maskText);
  const bits = v4 === undefined ? 128 : 32;
  if (ip === undefined || mask === undefined || mask.length !== maskText.length || mask.value > bits) return undefined;
  const prefix = mask.value + (128 - bits);
  const network = ip.map((b, i) => (i * 8 >= prefix ? 0 : i * 8 + 8 <= prefix ? b : b & (0xff << (8 - (prefix - i * 8))) & 0xff));
  return { family: v4 === undefined ? 'IPv6' : 'IPv4', network, prefix: mask.value };
}

/** ValidateNonSpecialIP's messages for an address (Go's IsUnspecified, IsLoopback, IsLinkLocalUnicast, IsLinkLocalMulticast). */
export function nonSpecialIpProblems(text: string): string[] {
  const ip = parseIpSloppy(text);
  if (ip === undefined) return ['must be a valid IP address'];
  const v4 = ipFamily(ip) === 'IPv4' ? ip.slice(12) : undefined;
  const problems: string[] = [];
  if (v4 ? v4.every((b) => b === 0) : ip.every((b) => b === 0)) problems.push(`may not be unspecified (${text})`);
  if (v4 ? v4[0] === 127 : ip.slice(0, 15).every((b) => b === 0) && ip[15] === 1) problems.push('may not be in the loopback range (127.0.0.0/8, ::1/128)');
  if (v4 ? v4[0] === 169 && v4[1] === 254 : ip[0] === 0xfe && ((ip[1] ?? 0) & 0xc0) === 0x80) problems.push('may not be in the link-local range (169.254.0.0/16, fe80::/10)');
  if (v4 ? v4[0] === 224 && v4[1] === 0 && v4[2] === 0 : ip[0] === 0xff && ((ip[1] ?? 0) & 0x0f) === 0x02) problems.push('may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)');
  return problems;
}

/** IsValidIP at `path`: Invalid with its message when `value` is no address. */
export function validateIpAddress(path: string, value: unknown): FieldError[] {
  return typeof value === 'string' && parseIpSloppy(value) !== undefined ? [] : [invalidValue(path, value, validIpMessage)];
}
