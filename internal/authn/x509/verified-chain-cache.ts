// Verifying a chain and reading its subject costs milliseconds (certificate parsing dominates),
// while a client sends the same chain on every request. The verifier remembers chains it verified
// against its CA bundle, with the time window in which their whole path is valid; outside that
// window, or for a chain never seen, it verifies in full. Failures are not remembered (a
// certificate not valid yet becomes valid), so a flood of bad chains costs what it costs uncached.
import { createHash } from 'node:crypto';
import type { X509Certificate } from 'node:crypto';
import { verifiedChainCacheEntriesMax } from '../limits.ts';
import { verifyClientCertificateChain } from './chain-verification.ts';
import { certificateSubject } from './subject.ts';
import type { CertificateSubject } from './subject.ts';

interface VerifiedChain {
  readonly subject: CertificateSubject;
  readonly validFromMs: number;
  readonly validToMs: number;
}

/** The result: the verified leaf's subject, or why the chain failed (for the log). */
export type ChainCheck = { readonly ok: true; readonly subject: CertificateSubject } | { readonly ok: false; readonly reason: string };

/** Verifies client chains against one CA bundle, remembering successes. */
export class ClientChainVerifier {
  private readonly verified = new Map<string, VerifiedChain>();

  constructor(private readonly roots: readonly X509Certificate[], private readonly entriesMax = verifiedChainCacheEntriesMax) {}

  /** Verifies `chainDer` (leaf first) at `nowMs`. */
  check(chainDer: readonly Buffer[], nowMs: number): ChainCheck {
    const hash = createHash('sha256');
    for (const der of chainDer) hash.update(createHash('sha256').update(der).digest());
    const key = hash.digest('base64');
    const known = this.verified.get(key);
    if (known !== undefined && known.validFromMs <= nowMs && nowMs <= known.validToMs) return { ok: true, subject: known.subject };
    const result = verifyClientCertificateChain(chainDer, this.roots, nowMs);
    if (!result.ok) return result;
    const subject = certificateSubject(result.leaf.raw);
    this.remember(key, { subject, validFromMs: result.validFromMs, validToMs: result.validToMs });
    return { ok: true, subject };
  }

  private remember(key: string, entry: VerifiedChain): void {
    this.verified.delete(key);
    while (this.verified.size >= this.entriesMax) {
      const oldest = this.verified.keys().next().value;
      if (oldest === undefined) break;
      this.verified.delete(oldest);
    }
    this.verified.set(key, entry);
  }
}
