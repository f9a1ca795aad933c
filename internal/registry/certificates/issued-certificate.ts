// What a signer may put in a CSR's status.certificate, as kube-apiserver 1.28 checks it
// (validateCertificate of pkg/apis/certificates/validation): one or more PEM blocks, each a
// CERTIFICATE without headers whose DER is one or more X.509 certificates; text around the
// blocks is allowed (RFC 7468's explanatory text).
import 'reflect-metadata';
import * as x509 from '@peculiar/x509';
import { readElement } from '../../certificates/der.ts';
import { pemBlocks } from '../../certificates/pem-blocks.ts';

/** The number of certificates in `der` (Go's x509.ParseCertificates), or an error in Go's words. */
function countCertificates(der: Uint8Array): number | string {
  let count = 0;
  for (let at = 0; at < der.length;) {
    const element = readElement(der, at);
    if (element === undefined) return 'x509: malformed certificate';
    try {
      new x509.X509Certificate(der.slice(at, element.end));
    } catch {
      return 'x509: malformed certificate';
    }
    count++;
    at = element.end;
  }
  return count;
}

/** Why `pem` is not an acceptable status.certificate, in kube's words; undefined when it is (or is empty). */
export function certificateProblem(pem: Uint8Array): string | undefined {
  if (pem.length === 0) return undefined;
  const blocks = pemBlocks(Buffer.from(pem).toString('latin1'));
  for (const block of blocks) {
    if (block.type !== 'CERTIFICATE') return `only CERTIFICATE PEM blocks are allowed, found ${JSON.stringify(block.type)}`;
    if (block.headers.length > 0) return 'no PEM block headers are permitted';
    const count = countCertificates(block.der);
    if (typeof count === 'string') return count;
    if (count === 0) return 'found CERTIFICATE PEM block containing 0 certificates';
  }
  return blocks.length === 0 ? 'must contain at least one CERTIFICATE PEM block' : undefined;
}
