/**
 * A PKCS#10 certificate request as kube-apiserver reads `spec.request` of a
 * CertificateSigningRequest (certificates.ParseCSR: the first PEM block, which must be a
 * CERTIFICATE REQUEST, then Go's x509.ParseCertificateRequest): the subject and the alternative
 * names the validators, admission plugins and signers look at, and the key the signer certifies.
 */
import { createPublicKey } from 'node:crypto';
import { x509 } from './x509.ts';
import { readElement } from './der.ts';
import { isIP } from 'node:net';
import { decodePem } from './pem-blocks.ts';
import { requestSignatureProblem } from './request-signature.ts';


/** What a parsed request says, in the terms of Go's x509.CertificateRequest. */
export interface CertificateRequest {
  /** The request's DER (Go's `Raw`). */
  readonly der: Uint8Array;
  /** The subject in RFC 4514 form, as @peculiar/x509 prints it. */
  readonly subject: string;
  /** The subject's common name ('' when absent; the last when repeated, as Go reads it). */
  readonly commonName: string;
  /** The subject's organizations (O), in order. */
  readonly organizations: readonly string[];
  readonly dnsNames: readonly string[];
  readonly ipAddresses: readonly string[];
  readonly emailAddresses: readonly string[];
  readonly uris: readonly string[];
  /** The SubjectPublicKeyInfo the certificate is to carry. */
  readonly publicKey: x509.PublicKey;
  /** The requested extensions (the extensionRequest attribute), which a signer may copy or drop. */
  readonly extensions: readonly x509.Extension[];
  /** Why the request is not signed by the private key of its own public key, in Go's words (CheckSignature); undefined when it is. */
  signatureProblem(): string | undefined;
}

/** A request that cannot be read; the message is what kube-apiserver's validation reports. */
export class CertificateRequestError extends Error {}

/** The alternative names of a request's subjectAltName extension, sorted by kind. */
function alternativeNames(extensions: readonly x509.Extension[]): Pick<CertificateRequest, 'dnsNames' | 'ipAddresses' | 'emailAddresses' | 'uris'> {
  const names = { dnsNames: [] as string[], ipAddresses: [] as string[], emailAddresses: [] as string[], uris: [] as string[] };
  for (const extension of extensions) {
    if (!(extension instanceof x509.SubjectAlternativeNameExtension)) continue;
    for (const name of extension.names.items) {
      if (name.type === 'dns') names.dnsNames.push(name.value);
      else if (name.type === 'ip') names.ipAddresses.push(name.value);
      else if (name.type === 'email') names.emailAddresses.push(name.value);
      else if (name.type === 'url') names.uris.push(name.value);
    }
  }
  return names;
}

/** The curves Go's x509 reads an ECDSA key on (node:crypto's names); a request on another is refused. */
const goCurves: ReadonlySet<string> = new Set(['secp224r1', 'prime256v1', 'secp384r1', 'secp521r1']);

/** ASCII only (Go's isIA5String). */
const ia5 = (text: string): boolean => [...text].every((c) => c.charCodeAt(0) < 0x80);

/** Why Go's parseSANExtension refuses one of the names, or undefined. */
function alternativeNameProblem(extensions: readonly x509.Extension[]): string | undefined {
  for (const extension of extensions) {
    if (!(extension instanceof x509.SubjectAlternativeNameExtension)) continue;
    for (const { type, value } of extension.names.items) {
      if (type === 'dns' && !ia5(value)) return 'x509: SAN dNSName is malformed';
      if (type === 'email' && !ia5(value)) return 'x509: SAN rfc822Name is malformed';
      if (type === 'url' && !ia5(value)) return 'x509: SAN uniformResourceIdentifier is malformed';
      // Go's url.Parse refuses a % that starts no escape.
      if (type === 'url' && /%(?![0-9A-Fa-f]{2})/.test(value)) return `x509: cannot parse URI ${JSON.stringify(value)}: invalid URL escape`;
      // Four or sixteen bytes only; @peculiar/x509 prints other lengths as something no address parser reads.
      if (type === 'ip' && isIP(value) === 0) return 'x509: cannot parse IP address';
    }
  }
  return undefined;
}

/** Why Go's x509.ParseCertificateRequest refuses what @peculiar/x509 read, or undefined. */
function goParseProblem(der: Uint8Array, publicKey: x509.PublicKey, extensions: readonly x509.Extension[]): string | undefined {
  if (readElement(der, 0)?.end !== der.length) return 'asn1: syntax error: trailing data';
  // Go since 1.21 (and kube's later 1.28 builds); one extension twice would let two readers see two requests.
  if (new Set(extensions.map((e) => e.type)).size !== extensions.length) return 'x509: certificate request contains duplicate requested extensions';
  const nameProblem = alternativeNameProblem(extensions);
  if (nameProblem !== undefined) return nameProblem;
  let curve: string | undefined;
  try {
    const key = createPublicKey({ key: Buffer.from(publicKey.rawData), format: 'der', type: 'spki' });
    curve = key.asymmetricKeyType === 'ec' ? key.asymmetricKeyDetails?.namedCurve ?? '' : undefined;
  } catch {
    return undefined; // a key node:crypto cannot read either: left to the signature check.
  }
  return curve !== undefined && !goCurves.has(curve) ? 'x509: unsupported elliptic curve' : undefined;
}

/**
 * Parses the PEM text of a CSR's `spec.request`. Throws CertificateRequestError with Go's message
 * when the first PEM block is missing or not a CERTIFICATE REQUEST, or its DER is not a request
 * Go reads (trailing bytes, an EC key on a curve Go does not know, an extension twice, an
 * alternative name Go cannot read). `pem` is read one character per byte (latin1).
 */
export function parseCertificateRequest(pem: string): CertificateRequest {
  // Go's pem.Decode: the first well-formed block, whatever comes before it.
  const block = decodePem(pem)?.block;
  if (block === undefined || block.type !== 'CERTIFICATE REQUEST') throw new CertificateRequestError('PEM block type must be CERTIFICATE REQUEST');
  let request: x509.Pkcs10CertificateRequest;
  let extensions: readonly x509.Extension[];
  try {
    request = new x509.Pkcs10CertificateRequest(block.der);
    extensions = request.extensions;
  } catch (err) {
    throw new CertificateRequestError(`x509: malformed certificate request: ${err instanceof Error ? err.message : String(err)}`);
  }
  const problem = goParseProblem(block.der, request.publicKey, extensions);
  if (problem !== undefined) throw new CertificateRequestError(problem);
  const subjectName = request.subjectName;
  return {
    der: block.der,
    subject: request.subject,
    // The last, as Go's pkix.Name keeps it (each CN overwrites the one before): the signer and the
    // API's client-certificate authenticator read that one, so every check must too.
    commonName: subjectName.getField('CN').at(-1) ?? '',
    organizations: subjectName.getField('O'),
    ...alternativeNames(extensions),
    publicKey: request.publicKey,
    extensions,
    signatureProblem: () => requestSignatureProblem(block.der, new Uint8Array(request.publicKey.rawData)),
  };
}
