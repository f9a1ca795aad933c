/** The cluster PKI: CA, peer, serving and client certificates (PEM). */
export { createCertificateAuthority, issueCertificate, issuePeerCertificate, importSigningKey, verifyIssuedBy } from './pki.ts';
export type { CertificateAndKey, CertificateUsage, IssueOptions } from './pki.ts';
export { ensureClusterPki, writePair } from './cluster-pki.ts';
export type { ClusterPki } from './cluster-pki.ts';
export { parseCertificateRequest, CertificateRequestError } from './certificate-request.ts';
export type { CertificateRequest } from './certificate-request.ts';
