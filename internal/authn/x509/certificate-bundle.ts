// CA bundles (--client-ca-file, --requestheader-client-ca-file, --oidc-ca-file): PEM text with one
// or more certificates.
import { X509Certificate } from 'node:crypto';

const pemCertificate = /-----BEGIN CERTIFICATE-----([A-Za-z0-9+/=\s]+?)-----END CERTIFICATE-----/g;

/** The certificates of a PEM bundle, in file order; throws when it holds none or one is unreadable. */
export function parseCertificateBundle(pem: string, what: string): X509Certificate[] {
  const certificates: X509Certificate[] = [];
  for (const match of pem.matchAll(pemCertificate)) {
    const der = Buffer.from(match[1]!.replace(/\s+/g, ''), 'base64');
    try {
      certificates.push(new X509Certificate(der));
    } catch {
      throw new Error(`${what}: certificate ${certificates.length + 1} cannot be parsed`);
    }
  }
  if (certificates.length === 0) throw new Error(`${what}: no PEM certificate found`);
  return certificates;
}
