import { isIPv4, isIPv6 } from 'node:net';

/** An IP family, as Service.spec.ipFamilies names it. */
export type IpFamily = 'IPv4' | 'IPv6';

/** An IP address as a number, with its family. */
export interface ParsedIp {
  readonly family: IpFamily;
  readonly value: bigint;
}

function parseIpv4(text: string): bigint | undefined {
  const parts = text.split('.');
  if (parts.length !== 4 || !isIPv4(text)) return undefined;
  return parts.reduce((sum, p) => (sum << 8n) | BigInt(Number(p)), 0n);
}

function groupsOf(half: string): number[] | undefined {
  if (half === '') return [];
  const groups: number[] = [];
  for (const part of half.split(':')) {
    if (part.includes('.')) {
      const v4 = parseIpv4(part);
      if (v4 === undefined) return undefined;
      groups.push(Number(v4 >> 16n), Number(v4 & 0xffffn));
    } else groups.push(Number.parseInt(part, 16));
  }
  return groups;
}

function parseIpv6(text: string): bigint | undefined {
  if (!isIPv6(text) || text.includes('%')) return undefined;
  const [head = '', tail] = text.split('::');
  const front = groupsOf(head);
  const back = tail === undefined ? [] : groupsOf(tail);
  if (front === undefined || back === undefined) return undefined;
  const zeros = tail === undefined ? 0 : 8 - front.length - back.length;
  const groups = [...front, ...Array<number>(zeros).fill(0), ...back];
  if (groups.length !== 8) return undefined;
  return groups.reduce((sum, g) => (sum << 16n) | BigInt(g), 0n);
}

/** Parses an IPv4 or IPv6 address (no zone); undefined when `text` is not one. */
export function parseIp(text: string): ParsedIp | undefined {
  const v4 = parseIpv4(text);
  if (v4 !== undefined) return { family: 'IPv4', value: v4 };
  const v6 = parseIpv6(text);
  return v6 === undefined ? undefined : { family: 'IPv6', value: v6 };
}

function formatIpv6(value: bigint): string {
  const groups = Array.from({ length: 8 }, (_, i) => Number((value >> BigInt(112 - 16 * i)) & 0xffffn));
  // RFC 5952 (as Go prints): the longest run of two or more zero groups becomes '::', the first on a tie.
  let bestStart = -1;
  let bestLength = 1;
  for (let i = 0; i < 8; ) {
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLength) [bestStart, bestLength] = [i, j - i];
    i = j === i ? i + 1 : j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (bestStart < 0) return hex.join(':');
  return `${hex.slice(0, bestStart).join(':')}::${hex.slice(bestStart + bestLength).join(':')}`;
}

/** The canonical text of an address (as Go's net.IP prints it): one spelling per address. */
export function formatIp(ip: ParsedIp): string {
  if (ip.family === 'IPv6') return formatIpv6(ip.value);
  return [24n, 16n, 8n, 0n].map((shift) => String((ip.value >> shift) & 0xffn)).join('.');
}

/** The canonical text of `text` when it is an address, else undefined. */
export function canonicalIp(text: string): string | undefined {
  const ip = parseIp(text);
  return ip === undefined ? undefined : formatIp(ip);
}

/**
 * The first and last offsets of a range kept for dynamic allocation first (kube-apiserver's
 * static sub-range, GA since 1.26 for IPs and beta on in 1.28 for node ports):
 * min(max(16, size / step), max), 0 when the range is smaller than 16.
 */
export function staticBandSize(rangeSize: bigint | number, step: number, max: number): number {
  const size = BigInt(rangeSize);
  if (size < 16n) return 0;
  const band = size / BigInt(step);
  if (band < 16n) return 16;
  return band > BigInt(max) ? max : Number(band);
}

/**
 * A service cluster IP range (one CIDR): the addresses Services may get, by offset. Offset 0 is
 * the address after the network address; IPv4 ranges leave out the broadcast address, and
 * IPv6 ranges use at most their first 65,535 addresses, as kube-apiserver's allocator does.
 */
export class IpRange {
  readonly family: IpFamily;
  /** `network/prefix`, as error messages name the range. */
  readonly cidr: string;
  /** How many addresses can be allocated (offsets 0 .. size-1). */
  readonly size: number;
  /** Offsets below this are kept for requested addresses while the rest has room. */
  readonly staticBand: number;
  private readonly first: bigint;
  private readonly network: bigint;
  private readonly hostBits: bigint;

  private constructor(network: ParsedIp, prefix: number) {
    const bits = network.family === 'IPv4' ? 32 : 128;
    this.family = network.family;
    this.hostBits = BigInt(bits - prefix);
    this.network = (network.value >> this.hostBits) << this.hostBits;
    this.cidr = `${formatIp({ family: this.family, value: this.network })}/${prefix}`;
    const total = 1n << this.hostBits;
    const usable = this.family === 'IPv4' ? total - 2n : (total > 65536n ? 65536n : total) - 1n;
    this.size = usable > 0n ? Number(usable) : 0;
    this.first = this.network + 1n;
    this.staticBand = Math.min(staticBandSize(total, 16, 256), this.size);
  }

  /** Parses `a.b.c.d/n` or `ipv6/n` (host bits are cleared, as Go's ParseCIDR does); throws Error. */
  static parse(text: string): IpRange {
    const [address = '', prefixText, extra] = text.split('/');
    const ip = parseIp(address);
    const prefix = /^\d{1,3}$/.test(prefixText ?? '') ? Number(prefixText) : Number.NaN;
    if (ip === undefined || extra !== undefined || !(prefix >= 0 && prefix <= (ip.family === 'IPv4' ? 32 : 128))) {
      throw new Error(`"${text}" is not a CIDR such as 10.96.0.0/12 or fd00:10:96::/112`);
    }
    return new IpRange(ip, prefix);
  }

  /** The prefix length. */
  get prefix(): number {
    return (this.family === 'IPv4' ? 32 : 128) - Number(this.hostBits);
  }

  /** The offset of `ip` in this range, or undefined when it is not one of the allocatable addresses. */
  offsetOf(ip: ParsedIp): number | undefined {
    if (ip.family !== this.family || ip.value >> this.hostBits !== this.network >> this.hostBits) return undefined;
    const offset = ip.value - this.first;
    return offset >= 0n && offset < BigInt(this.size) ? Number(offset) : undefined;
  }

  /** The canonical address at `offset` (0 <= offset < size). */
  addressAt(offset: number): string {
    if (!Number.isSafeInteger(offset) || offset < 0 || offset >= this.size) throw new Error(`assert: offset ${offset} outside ${this.cidr}`);
    return formatIp({ family: this.family, value: this.first + BigInt(offset) });
  }
}

/** A node port range: `base` .. `base + size - 1`. */
export interface PortRange {
  readonly base: number;
  readonly size: number;
}

/** The range as kube-apiserver prints it: `30000-32767`. */
export function portRangeText(range: PortRange): string {
  return `${range.base}-${range.base + range.size - 1}`;
}

/** Offsets below this are kept for requested node ports while the rest has room. */
export function portStaticBand(range: PortRange): number {
  return range.size <= 16 ? 0 : staticBandSize(range.size, 32, 128);
}

/** Parses `min-max`, `base+offset` or a single port, as kube-apiserver's --service-node-port-range; throws Error. */
export function parsePortRange(text: string): PortRange {
  const match = /^(\d+)(?:([-+])(\d+))?$/.exec(text.trim());
  const base = Number(match?.[1]);
  const other = match?.[3] === undefined ? undefined : Number(match[3]);
  const last = other === undefined ? base : match?.[2] === '+' ? base + other : other;
  if (!match || base < 1 || base > 65535 || last < base || last > 65535) {
    throw new Error(`"${text}" is not a port range such as 30000-32767 (ports 1-65535, the first not above the last)`);
  }
  return { base, size: last - base + 1 };
}
