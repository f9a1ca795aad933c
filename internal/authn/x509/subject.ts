// A certificate subject's common name and organizations, read with a real X.501 name parser
// (node's `subject` text is ambiguous when a value holds a newline or an `=`).
import 'reflect-metadata';
import * as x509 from '@peculiar/x509';

/** The subject fields kube's x509 authenticator reads. */
export interface CertificateSubject {
  /** The last CN, or '' when there is none (Go's pkix.Name keeps the last of several, and kube reads that). */
  readonly commonName: string;
  /** Every O, in order. */
  readonly organizations: readonly string[];
}

/** Reads the subject of a DER certificate. */
export function certificateSubject(der: Buffer): CertificateSubject {
  const name = new x509.X509Certificate(der).subjectName;
  return { commonName: name.getField('CN').at(-1) ?? '', organizations: name.getField('O') };
}
