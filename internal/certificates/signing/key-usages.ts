// The usages a CertificateSigningRequest may ask for (certificates.k8s.io/v1 KeyUsage) and what
// each becomes in the issued certificate, as kube-controller-manager's signing policy maps them
// (pkg/controller/certificates/authority/policies.go): a key usage bit or an extended key usage.
import 'reflect-metadata';
import * as x509 from '@peculiar/x509';

/** spec.usages values that set a bit of the key usage extension. */
const keyUsageBits: Readonly<Record<string, x509.KeyUsageFlags>> = {
  signing: x509.KeyUsageFlags.digitalSignature,
  'digital signature': x509.KeyUsageFlags.digitalSignature,
  'content commitment': x509.KeyUsageFlags.nonRepudiation,
  'key encipherment': x509.KeyUsageFlags.keyEncipherment,
  'key agreement': x509.KeyUsageFlags.keyAgreement,
  'data encipherment': x509.KeyUsageFlags.dataEncipherment,
  'cert sign': x509.KeyUsageFlags.keyCertSign,
  'crl sign': x509.KeyUsageFlags.cRLSign,
  'encipher only': x509.KeyUsageFlags.encipherOnly,
  'decipher only': x509.KeyUsageFlags.decipherOnly,
};

/**
 * spec.usages values that add an extended key usage, in the order of Go's x509.ExtKeyUsage
 * constants (the order kube writes them in).
 */
const extendedKeyUsages: readonly (readonly [string, string])[] = [
  ['any', '2.5.29.37.0'],
  ['server auth', '1.3.6.1.5.5.7.3.1'],
  ['client auth', '1.3.6.1.5.5.7.3.2'],
  ['code signing', '1.3.6.1.5.5.7.3.3'],
  ['email protection', '1.3.6.1.5.5.7.3.4'],
  ['s/mime', '1.3.6.1.5.5.7.3.4'],
  ['ipsec end system', '1.3.6.1.5.5.7.3.5'],
  ['ipsec tunnel', '1.3.6.1.5.5.7.3.6'],
  ['ipsec user', '1.3.6.1.5.5.7.3.7'],
  ['timestamping', '1.3.6.1.5.5.7.3.8'],
  ['ocsp signing', '1.3.6.1.5.5.7.3.9'],
  ['microsoft sgc', '1.3.6.1.4.1.311.10.3.3'],
  ['netscape sgc', '2.16.840.1.113730.4.1'],
];

/** What a list of usages puts in a certificate. */
export interface CertificateUsages {
  /** The key usage bits (0: no key usage extension). */
  readonly keyUsage: number;
  /** The extended key usage OIDs, each once, in Go's constant order. */
  readonly extendedKeyUsages: readonly string[];
}

/** An spec.usages value the signing policy does not know; the message is kube's. */
export class UnrecognizedUsageError extends Error {}

/** Maps spec.usages; throws UnrecognizedUsageError listing every value it does not know. */
export function certificateUsages(usages: readonly string[]): CertificateUsages {
  let keyUsage = 0;
  const extended = new Set<string>();
  const unrecognized: string[] = [];
  for (const usage of usages) {
    const bit = keyUsageBits[usage];
    const oid = extendedKeyUsages.find(([name]) => name === usage)?.[1];
    if (bit !== undefined) keyUsage |= bit;
    else if (oid !== undefined) extended.add(oid);
    else unrecognized.push(usage);
  }
  if (unrecognized.length > 0) throw new UnrecognizedUsageError(`unrecognized usage values: [${unrecognized.map((u) => JSON.stringify(u)).join(' ')}]`);
  const order = extendedKeyUsages.map(([, oid]) => oid);
  return { keyUsage, extendedKeyUsages: [...extended].sort((a, b) => order.indexOf(a) - order.indexOf(b)) };
}
