// Test CAs (RSA and ECDSA, keys in PKCS#1, SEC1 or PKCS#8) and PKCS#10 requests for the signing tests.
import 'reflect-metadata';
import { createPrivateKey, createPublicKey, webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';

x509.cryptoProvider.set(webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0]);

const rsa = { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256', publicExponent: new Uint8Array([1, 0, 1]), modulusLength: 2048 } as const;
const ecdsa = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;

/** A test CA: certificate and key PEM. */
export interface TestCa {
  readonly cert: string;
  readonly key: string;
}

/** Makes a self-signed CA whose key is written in `keyFormat`; `validityMs` from an hour ago. */
export async function makeCa(options: { kind: 'rsa' | 'ecdsa'; keyFormat: 'pkcs1' | 'sec1' | 'pkcs8'; validityMs?: number; commonName?: string }): Promise<TestCa> {
  const algorithm = options.kind === 'rsa' ? rsa : ecdsa;
  const keys = await webcrypto.subtle.generateKey(algorithm, true, ['sign', 'verify']);
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: '01',
    name: `CN=${options.commonName ?? 'test-signer'}`,
    notBefore: new Date(Date.now() - 3_600_000),
    notAfter: new Date(Date.now() + (options.validityMs ?? 10 * 365 * 86_400_000)),
    signingAlgorithm: algorithm,
    keys,
    extensions: [new x509.BasicConstraintsExtension(true, undefined, true), await x509.SubjectKeyIdentifierExtension.create(keys.publicKey)],
  });
  const pkcs8 = Buffer.from(await webcrypto.subtle.exportKey('pkcs8', keys.privateKey));
  const key = createPrivateKey({ key: pkcs8, format: 'der', type: 'pkcs8' }).export({ format: 'pem', type: options.keyFormat }).toString();
  return { cert: cert.toString('pem'), key };
}

/** What a test request asks for. */
export interface RequestParts {
  readonly commonName?: string;
  readonly organizations?: readonly string[];
  readonly dnsNames?: readonly string[];
  readonly ipAddresses?: readonly string[];
  readonly emailAddresses?: readonly string[];
  readonly uris?: readonly string[];
  readonly kind?: 'rsa' | 'ecdsa';
  /** More requested extensions (a signer drops them). */
  readonly extensions?: readonly x509.Extension[];
}

/** A PKCS#10 request (PEM) signed by a fresh key. */
export async function makeRequest(parts: RequestParts): Promise<string> {
  const algorithm = parts.kind === 'rsa' ? rsa : ecdsa;
  const keys = await webcrypto.subtle.generateKey(algorithm, true, ['sign', 'verify']);
  const names: x509.JsonGeneralName[] = [
    ...(parts.dnsNames ?? []).map((value) => ({ type: 'dns' as const, value })),
    ...(parts.ipAddresses ?? []).map((value) => ({ type: 'ip' as const, value })),
    ...(parts.emailAddresses ?? []).map((value) => ({ type: 'email' as const, value })),
    ...(parts.uris ?? []).map((value) => ({ type: 'url' as const, value })),
  ];
  const name: x509.JsonName = [
    ...(parts.organizations ?? []).map((o) => ({ O: [o] })),
    ...(parts.commonName === undefined ? [] : [{ CN: [parts.commonName] }]),
  ];
  const request = await x509.Pkcs10CertificateRequestGenerator.create({
    name,
    keys,
    signingAlgorithm: algorithm,
    extensions: [...(names.length === 0 ? [] : [new x509.SubjectAlternativeNameExtension(names)]), ...(parts.extensions ?? [])],
  });
  return request.toString('pem');
}

/** A kubelet's client certificate request for node `node`. */
export function nodeClientRequest(node: string): Promise<string> {
  return makeRequest({ commonName: `system:node:${node}`, organizations: ['system:nodes'] });
}

/**
 * A CA certificate over `ca`'s own key (a renewal: new serial, same key), or a new intermediate
 * CA that `ca`'s key signs. ECDSA P-256 PKCS#8 keys only.
 */
export async function caDerivedFrom(ca: TestCa, kind: 'renewal' | 'intermediate'): Promise<TestCa> {
  const signingKey = await webcrypto.subtle.importKey('pkcs8', createPrivateKey(ca.key).export({ format: 'der', type: 'pkcs8' }), ecdsa, true, ['sign']);
  const caPublic = await webcrypto.subtle.importKey('spki', createPublicKey(ca.key).export({ format: 'der', type: 'spki' }), ecdsa, true, ['verify']);
  const fresh = kind === 'intermediate' ? await webcrypto.subtle.generateKey(ecdsa, true, ['sign', 'verify']) : undefined;
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: kind === 'renewal' ? '02' : '03',
    subject: kind === 'renewal' ? new x509.X509Certificate(ca.cert).subject : 'CN=intermediate',
    issuer: new x509.X509Certificate(ca.cert).subject,
    notBefore: new Date(Date.now() - 3_600_000),
    notAfter: new Date(Date.now() + 365 * 86_400_000),
    signingAlgorithm: ecdsa,
    publicKey: fresh?.publicKey ?? caPublic,
    signingKey,
    extensions: [new x509.BasicConstraintsExtension(true, undefined, true)],
  });
  const key = fresh === undefined ? ca.key : createPrivateKey({ key: Buffer.from(await webcrypto.subtle.exportKey('pkcs8', fresh.privateKey)), format: 'der', type: 'pkcs8' }).export({ format: 'pem', type: 'pkcs8' }).toString();
  return { cert: cert.toString('pem'), key };
}
