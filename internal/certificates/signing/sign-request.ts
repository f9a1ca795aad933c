// Signs a parsed certificate request under kube-controller-manager's PermissiveSigningPolicy
// (pkg/controller/certificates/authority/{authority.go,policies.go}): the request's subject, names
// and public key; its requested extensions dropped; key and extended key usages from spec.usages;
// never a CA; backdated; valid for the duration but never past the CA's own notAfter.
import 'reflect-metadata';
import { webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';
import type { CertificateRequest } from '../certificate-request.ts';
import { certificateUsages } from './key-usages.ts';
import type { SigningAuthority } from './signing-authority.ts';
import { signingBackdateMs, signingShortLivedMs } from './limits.ts';

/** What one signing is given besides the request. */
export interface SigningPolicy {
  /** spec.usages. */
  readonly usages: readonly string[];
  /** How long the certificate is valid (the signer's duration, already capped by spec.expirationSeconds). */
  readonly durationMs: number;
  /** The signing time (default: now). */
  readonly now?: Date;
}

/** A request the authority refuses to sign; the message is kube's. */
export class SigningError extends Error {}

/** The validity window: backdated (not the end of a short-lived one), cut at the CA's notAfter. */
export function validityWindow(nowMs: number, durationMs: number, caNotAfter: Date): { notBefore: Date; notAfter: Date } {
  const notBeforeMs = nowMs - signingBackdateMs;
  let notAfterMs = durationMs < signingShortLivedMs ? nowMs + durationMs : notBeforeMs + durationMs;
  const capMs = caNotAfter.getTime();
  if (notAfterMs >= capMs) notAfterMs = capMs;
  if (notBeforeMs >= capMs) throw new SigningError(`the signer has expired: NotAfter=${caNotAfter.toISOString()}`);
  if (nowMs >= capMs) throw new SigningError(`refusing to sign a certificate that expired in the past: NotAfter=${caNotAfter.toISOString()}`);
  return { notBefore: new Date(notBeforeMs), notAfter: new Date(notAfterMs) };
}

/** A random positive serial below 2^128, as hex. */
function randomSerial(): string {
  const bytes = webcrypto.getRandomValues(new Uint8Array(16));
  bytes[0] = (bytes[0] ?? 0) & 0x7f;
  return Buffer.from(bytes).toString('hex');
}

/**
 * The request's subject as Go re-encodes a parsed pkix.Name: the known attributes only, in Go's
 * order, the values of one attribute in one RDN.
 */
function subjectOf(request: CertificateRequest): x509.JsonName {
  const name = new x509.Pkcs10CertificateRequest(request.der).subjectName;
  // C, ST, L, street, postalCode, O, OU, CN, serialNumber.
  const types = ['2.5.4.6', '2.5.4.8', '2.5.4.7', '2.5.4.9', '2.5.4.17', '2.5.4.10', '2.5.4.11', '2.5.4.3', '2.5.4.5'];
  const rdns: x509.JsonName = [];
  for (const type of types) {
    const values = name.getField(type);
    // Go keeps one common name and one serial number (the last read).
    const kept = type === '2.5.4.3' || type === '2.5.4.5' ? values.slice(-1) : values;
    if (kept.length > 0) rdns.push({ [type]: kept });
  }
  return rdns;
}

function alternativeNames(request: CertificateRequest): x509.JsonGeneralName[] {
  return [
    ...request.dnsNames.map((value) => ({ type: 'dns' as const, value })),
    ...request.emailAddresses.map((value) => ({ type: 'email' as const, value })),
    ...request.ipAddresses.map((value) => ({ type: 'ip' as const, value })),
    ...request.uris.map((value) => ({ type: 'url' as const, value })),
  ];
}

/** The extensions kube's certificates carry, in Go's order. */
function extensionsFor(authority: SigningAuthority, request: CertificateRequest, usages: readonly string[], subjectEmpty: boolean): x509.Extension[] {
  const { keyUsage, extendedKeyUsages } = certificateUsages(usages);
  const extensions: x509.Extension[] = [];
  if (keyUsage !== 0) extensions.push(new x509.KeyUsagesExtension(keyUsage, true));
  if (extendedKeyUsages.length > 0) extensions.push(new x509.ExtendedKeyUsageExtension([...extendedKeyUsages], false));
  extensions.push(new x509.BasicConstraintsExtension(false, undefined, true));
  const caKeyId = authority.certificate.getExtension(x509.SubjectKeyIdentifierExtension)?.keyId;
  if (caKeyId !== undefined && caKeyId !== '') extensions.push(new x509.AuthorityKeyIdentifierExtension(caKeyId, false));
  const names = alternativeNames(request);
  // RFC 5280: critical when the subject is empty.
  if (names.length > 0) extensions.push(new x509.SubjectAlternativeNameExtension(names, subjectEmpty));
  return extensions;
}

/**
 * Issues the certificate `request` asks for, signed by `authority`; PEM. Throws SigningError when
 * the request's own signature does not verify, a usage is unknown, or the CA has expired.
 */
export async function signCertificateRequest(authority: SigningAuthority, request: CertificateRequest, policy: SigningPolicy): Promise<string> {
  if (request.signatureProblem() !== undefined) throw new SigningError('unable to verify certificate request signature');
  const subject = subjectOf(request);
  let extensions: x509.Extension[];
  try {
    extensions = extensionsFor(authority, request, policy.usages, subject.length === 0);
  } catch (err) {
    throw new SigningError((err as Error).message);
  }
  const { notBefore, notAfter } = validityWindow((policy.now ?? new Date()).getTime(), policy.durationMs, authority.certificate.notAfter);
  const certificate = await x509.X509CertificateGenerator.create({
    serialNumber: randomSerial(),
    subject,
    issuer: authority.certificate.subjectName,
    notBefore,
    notAfter,
    signingAlgorithm: authority.signingAlgorithm,
    publicKey: request.publicKey,
    signingKey: authority.privateKey,
    extensions,
  });
  return certificate.toString('pem') + '\n';
}
