// Client certificates signed by a running cluster's own CA with every knob a denial test needs
// (validity window, extended key usages), through test-pki's makeCertificate.
import 'reflect-metadata';
import * as x509 from '@peculiar/x509';
import { importSigningKey } from '../../internal/certificates/index.ts';
import { makeCertificate, type CertificateSpec, type TestCertificate } from '../unit/authn/fixtures/test-pki.ts';

/** A cluster CA (PEM certificate and PKCS#8 ECDSA P-256 key) as makeCertificate's issuer: only its certificate and private key are read. */
export async function clusterCaIssuer(ca: { readonly cert: string; readonly key: string }): Promise<TestCertificate> {
  const privateKey = await importSigningKey(ca.key);
  return { certificate: new x509.X509Certificate(ca.cert), keys: { privateKey } } as unknown as TestCertificate;
}

/** A certificate per `spec`, signed by the cluster CA. */
export async function clusterSignedCertificate(ca: { readonly cert: string; readonly key: string }, spec: Omit<CertificateSpec, 'issuer'>): Promise<{ cert: string; key: string }> {
  const made = await makeCertificate({ ...spec, issuer: await clusterCaIssuer(ca) });
  return { cert: made.pem, key: made.keyPem };
}
