/**
 * A small X.509 toolkit: a cluster CA (ECDSA P-256) and the certificates it issues — peer
 * certificates usable as both TLS server and client, API serving certificates, client
 * certificates. Everything is PEM text so callers can hand it to node:tls or gRPC as is.
 */
import { webcrypto } from 'node:crypto';
import { x509 } from './x509.ts';


type CryptoKey = webcrypto.CryptoKey;
type CryptoKeyPair = webcrypto.CryptoKeyPair;

const ecdsa = { name: 'ECDSA', namedCurve: 'P-256' } as const;
const signingAlgorithm = { name: 'ECDSA', hash: 'SHA-256' } as const;
const dayMs = 24 * 60 * 60 * 1000;

/** A certificate and its private key, both PEM. */
export interface CertificateAndKey {
  readonly cert: string;
  readonly key: string;
}

/** What a certificate may be used for (extended key usage). */
export type CertificateUsage = 'server' | 'client';

/** Options of a certificate issued by a CA. */
export interface IssueOptions {
  readonly commonName: string;
  /** Subject organizations (Kubernetes reads them as groups of a client certificate). */
  readonly organizations?: readonly string[];
  readonly dnsNames?: readonly string[];
  readonly ipAddresses?: readonly string[];
  readonly usages: readonly CertificateUsage[];
  /** Validity in days from now; default 365. */
  readonly validityDays?: number;
}

function randomSerial(): string {
  const bytes = webcrypto.getRandomValues(new Uint8Array(16));
  bytes[0] = (bytes[0] ?? 0) & 0x7f; // positive INTEGER
  return Buffer.from(bytes).toString('hex');
}

function subjectName(commonName: string, organizations: readonly string[] = []): string {
  const escape = (s: string): string => s.replace(/([,+"\\<>;=])/g, '\\$1');
  return [`CN=${escape(commonName)}`, ...organizations.map((o) => `O=${escape(o)}`)].join(', ');
}

async function keyToPem(key: CryptoKey): Promise<string> {
  const der = await webcrypto.subtle.exportKey('pkcs8', key);
  return x509.PemConverter.encode(der, 'PRIVATE KEY');
}

async function generateKeys(): Promise<CryptoKeyPair> {
  return webcrypto.subtle.generateKey(ecdsa, true, ['sign', 'verify']);
}

/** Imports a PEM PKCS#8 ECDSA P-256 private key for signing. */
export async function importSigningKey(pem: string): Promise<CryptoKey> {
  const der = x509.PemConverter.decodeFirst(pem);
  return webcrypto.subtle.importKey('pkcs8', der, ecdsa, true, ['sign']);
}

/** Creates a self-signed CA certificate (ECDSA P-256, 10 years by default). */
export async function createCertificateAuthority(commonName: string, validityDays = 3650): Promise<CertificateAndKey> {
  const keys = await generateKeys();
  const now = Date.now();
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: randomSerial(),
    name: subjectName(commonName),
    notBefore: new Date(now - 60_000),
    notAfter: new Date(now + validityDays * dayMs),
    signingAlgorithm,
    keys,
    extensions: [
      new x509.BasicConstraintsExtension(true, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign | x509.KeyUsageFlags.digitalSignature, true),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  return { cert: cert.toString('pem'), key: await keyToPem(keys.privateKey) };
}

/** Issues a leaf certificate signed by `ca` with the given names and usages. */
export async function issueCertificate(ca: CertificateAndKey, opts: IssueOptions): Promise<CertificateAndKey> {
  const caCert = new x509.X509Certificate(ca.cert);
  const caKey = await importSigningKey(ca.key);
  const keys = await generateKeys();
  const now = Date.now();
  const names: x509.JsonGeneralName[] = [
    ...(opts.dnsNames ?? []).map((value) => ({ type: 'dns' as const, value })),
    ...(opts.ipAddresses ?? []).map((value) => ({ type: 'ip' as const, value })),
  ];
  const extendedUsages = opts.usages.map((u) => (u === 'server' ? x509.ExtendedKeyUsage.serverAuth : x509.ExtendedKeyUsage.clientAuth));
  const extensions: x509.Extension[] = [
    new x509.BasicConstraintsExtension(false, undefined, true),
    new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyEncipherment, true),
    new x509.ExtendedKeyUsageExtension(extendedUsages, false),
    await x509.AuthorityKeyIdentifierExtension.create(caCert, false),
    await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
  ];
  if (names.length > 0) extensions.push(new x509.SubjectAlternativeNameExtension(names, false));
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: randomSerial(),
    subject: subjectName(opts.commonName, opts.organizations),
    issuer: caCert.subject,
    notBefore: new Date(now - 60_000),
    notAfter: new Date(now + (opts.validityDays ?? 365) * dayMs),
    signingAlgorithm,
    publicKey: keys.publicKey,
    signingKey: caKey,
    extensions,
  });
  return { cert: cert.toString('pem'), key: await keyToPem(keys.privateKey) };
}

/** Issues a peer certificate for replica `name`: server and client usage, valid for loopback and `name`. */
export async function issuePeerCertificate(ca: CertificateAndKey, name: string, extraHosts: readonly string[] = []): Promise<CertificateAndKey> {
  const isIp = (h: string): boolean => /^[\d.]+$/.test(h) || h.includes(':');
  const hosts = [...new Set(['localhost', '127.0.0.1', '::1', name, ...extraHosts])];
  return issueCertificate(ca, {
    commonName: name,
    dnsNames: hosts.filter((h) => !isIp(h)),
    ipAddresses: hosts.filter(isIp),
    usages: ['server', 'client'],
  });
}

/** True when `certPem` is currently valid and signed by the CA in `caPem`. */
export async function verifyIssuedBy(certPem: string, caPem: string): Promise<boolean> {
  const cert = new x509.X509Certificate(certPem);
  const caCert = new x509.X509Certificate(caPem);
  if (cert.issuer !== caCert.subject) return false;
  return cert.verify({ publicKey: caCert.publicKey, date: new Date() });
}
