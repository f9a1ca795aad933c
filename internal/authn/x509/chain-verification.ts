// Verifies a client's certificate chain against a CA bundle as Go's x509.Certificate.Verify does
// for kube's x509 authenticator: a path from the leaf through the presented intermediates to a
// trusted root, every signature checked, every certificate within its validity at `nowMs`, every
// issuer a CA, and the extended key usages of every certificate on the path allowing clientAuth
// (a certificate without the extension allows any usage).
import { X509Certificate } from 'node:crypto';
import { certificatePathDepthMax, peerCertificateChainMax } from '../limits.ts';

const clientAuthUsage = '1.3.6.1.5.5.7.3.2';
const anyExtendedKeyUsage = '2.5.29.37.0';

/** The result of a verification: the verified leaf, or why it failed (for the log; no secret in it). */
export type ChainVerification =
  /** `validFromMs`..`validToMs`: when every certificate of the verified path is valid (for caching). */
  | { readonly ok: true; readonly leaf: X509Certificate; readonly validFromMs: number; readonly validToMs: number }
  | { readonly ok: false; readonly reason: string };

function withinValidity(certificate: X509Certificate, nowMs: number): boolean {
  return Date.parse(certificate.validFrom) <= nowMs && nowMs <= Date.parse(certificate.validTo);
}

function allowsClientAuth(certificate: X509Certificate): boolean {
  // node names the extended key usages `keyUsage`; undefined when the extension is absent.
  const usages = certificate.keyUsage as string[] | undefined;
  return usages === undefined || usages.includes(clientAuthUsage) || usages.includes(anyExtendedKeyUsage);
}

function issuedBy(child: X509Certificate, issuer: X509Certificate): boolean {
  if (!issuer.ca || !child.checkIssued(issuer)) return false;
  try {
    return child.verify(issuer.publicKey);
  } catch {
    return false;
  }
}

interface PathSearch {
  readonly intermediates: readonly X509Certificate[];
  readonly roots: readonly X509Certificate[];
  readonly nowMs: number;
  /** The first reason a candidate path was refused, reported when no path verifies. */
  refusal?: string;
}

function usable(certificate: X509Certificate, search: PathSearch): boolean {
  if (!withinValidity(certificate, search.nowMs)) {
    search.refusal ??= 'x509: certificate has expired or is not yet valid';
    return false;
  }
  if (!allowsClientAuth(certificate)) {
    search.refusal ??= 'x509: certificate specifies an incompatible key usage';
    return false;
  }
  return true;
}

/** The verified path from `path`'s last certificate to a root (root included), or undefined. */
function pathToRoot(path: readonly X509Certificate[], search: PathSearch): readonly X509Certificate[] | undefined {
  const certificate = path[path.length - 1]!;
  if (path.length > certificatePathDepthMax) return undefined;
  if (search.roots.some((root) => root.raw.equals(certificate.raw))) return path;
  for (const root of search.roots) {
    if (issuedBy(certificate, root) && usable(root, search)) return [...path, root];
  }
  for (const intermediate of search.intermediates) {
    if (path.some((seen) => seen.raw.equals(intermediate.raw))) continue;
    if (!issuedBy(certificate, intermediate) || !usable(intermediate, search)) continue;
    const found = pathToRoot([...path, intermediate], search);
    if (found !== undefined) return found;
  }
  return undefined;
}

/**
 * Verifies `chainDer` (leaf first, then intermediates in any order) against `roots` at `nowMs`.
 * Never throws for a bad chain.
 */
export function verifyClientCertificateChain(chainDer: readonly Buffer[], roots: readonly X509Certificate[], nowMs: number): ChainVerification {
  if (chainDer.length === 0) return { ok: false, reason: 'x509: no client certificate' };
  if (chainDer.length > peerCertificateChainMax) return { ok: false, reason: 'x509: certificate chain too long' };
  let chain: X509Certificate[];
  try {
    chain = chainDer.map((der) => new X509Certificate(der));
  } catch {
    return { ok: false, reason: 'x509: malformed certificate' };
  }
  const leaf = chain[0]!;
  const search: PathSearch = { intermediates: chain.slice(1), roots, nowMs };
  if (!usable(leaf, search)) return { ok: false, reason: search.refusal! };
  const path = pathToRoot([leaf], search);
  if (path !== undefined) {
    const validFromMs = Math.max(...path.map((c) => Date.parse(c.validFrom)));
    const validToMs = Math.min(...path.map((c) => Date.parse(c.validTo)));
    return { ok: true, leaf, validFromMs, validToMs };
  }
  return { ok: false, reason: search.refusal ?? 'x509: certificate signed by unknown authority' };
}
