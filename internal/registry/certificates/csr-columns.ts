// The table of CertificateSigningRequests as kube-apiserver 1.28 prints it
// (printCertificateSigningRequest of pkg/printers/internalversion): kubectl get csr's NAME, AGE,
// SIGNERNAME, REQUESTOR, REQUESTEDDURATION and CONDITION.
import type { KObject, PrinterColumn } from '../schema/declaration.ts';
import { ageColumn, field, humanDuration, nameColumn, text } from '../schema/printers.ts';
import { approved, conditionsOf, denied, failed } from './csr-fields.ts';

/** extractCSRStatus: Denied over Approved over Pending, then Failed and Issued when they apply. */
export function csrCondition(obj: KObject): string {
  const types = new Set(conditionsOf(obj).map((c) => c.type));
  let status = types.has(denied) ? 'Denied' : types.has(approved) ? 'Approved' : 'Pending';
  if (types.has(failed)) status += ',Failed';
  const certificate = field(obj, 'status.certificate');
  if (typeof certificate === 'string' && certificate !== '') status += ',Issued';
  return status;
}

function requestedDuration(obj: KObject): string {
  const seconds = field(obj, 'spec.expirationSeconds');
  return typeof seconds === 'number' ? humanDuration(seconds * 1000) : '<none>';
}

/** The CSR table's columns. */
export const csrColumns: readonly PrinterColumn[] = [
  nameColumn,
  ageColumn,
  { name: 'SignerName', type: 'string', description: 'signerName indicates the requested signer, and is a qualified name.', cell: (o) => text(o, 'spec.signerName') || '<none>' },
  { name: 'Requestor', type: 'string', description: 'request contains an x509 certificate signing request encoded in a "CERTIFICATE REQUEST" PEM block.', cell: (o) => text(o, 'spec.username') },
  { name: 'RequestedDuration', type: 'string', description: 'expirationSeconds is the requested duration of validity of the issued certificate.', cell: requestedDuration },
  { name: 'Condition', type: 'string', description: 'conditions applied to the request.', cell: csrCondition },
];
