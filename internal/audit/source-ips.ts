// The addresses a request came from, as kube's utilnet.SourceIPs lists them: every valid address
// of X-Forwarded-For, then X-Real-Ip unless already listed, then the connection's peer unless it is
// the last one listed. Each is written as Go writes a net.IP (IPv4-mapped IPv6 as IPv4).
import type { IncomingHttpHeaders } from 'node:http';
import { isIP } from 'node:net';

/** `text` as Go's net.IP.String writes the address, or undefined when it is none. */
export function canonicalIp(text: string): string | undefined {
  const trimmed = text.trim();
  const version = isIP(trimmed);
  if (version === 4) return trimmed.split('.').map((part) => String(Number(part))).join('.');
  if (version !== 6) return undefined;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(trimmed);
  if (mapped?.[1] !== undefined) return mapped[1];
  // WHATWG URL serializes an IPv6 host as RFC 5952 says, as Go does: lowercase, longest zero run compressed.
  return new URL(`http://[${trimmed}]/`).hostname.slice(1, -1);
}

function firstValue(value: string | string[] | undefined): string {
  return (Array.isArray(value) ? value[0] : value) ?? '';
}

/** The source addresses of a request with these headers from the peer `remoteAddress`. */
export function sourceIps(headers: IncomingHttpHeaders, remoteAddress: string | undefined): string[] {
  const ips: string[] = [];
  const forwarded = firstValue(headers['x-forwarded-for']);
  if (forwarded !== '') {
    for (const part of forwarded.split(',')) {
      const ip = canonicalIp(part);
      if (ip !== undefined) ips.push(ip);
    }
  }
  const real = canonicalIp(firstValue(headers['x-real-ip']));
  if (real !== undefined && !ips.includes(real)) ips.push(real);
  const remote = remoteAddress === undefined ? undefined : canonicalIp(remoteAddress);
  if (remote !== undefined && ips[ips.length - 1] !== remote) ips.push(remote);
  return ips;
}
