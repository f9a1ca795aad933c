import type { ResourceDeclaration } from '../schema/declaration.ts';
import { builtinFields, builtinRequired } from '../schema/builtin-schemas.ts';
import { textLabel } from '../schema/field-labels.ts';
import { cloneObject } from '../generic/codec.ts';
import { csrColumns } from './csr-columns.ts';
import { validateCsrCreate, validateCsrUpdate } from './csr-validation.ts';
import { csrApprovalView, csrStatusView } from './csr-writes.ts';
import { fillRequestor } from './requestor.ts';

/**
 * CertificateSigningRequests (certificates.<domain>/v1): a request for a certificate from a named
 * signer, approved through /approval and issued through /status. kube-apiserver 1.28:
 * pkg/registry/certificates/certificates/{strategy.go,storage/storage.go}, the v1 field label
 * conversion (metadata.name, spec.signerName), printCertificateSigningRequest. The requestor fields
 * come from the request's user (requestor-hooks.ts).
 */
export const certificatesigningrequests: ResourceDeclaration = {
  group: 'certificates',
  groupQualified: true,
  version: 'v1',
  kind: 'CertificateSigningRequest',
  plural: 'certificatesigningrequests',
  singular: 'certificatesigningrequest',
  shortNames: ['csr'],
  namespaced: false,
  // Any name will do (ValidateCertificateRequestName accepts all); the store still needs a path segment.
  nameRule: 'path-segment',
  description: 'CertificateSigningRequest objects provide a mechanism to obtain x509 certificates by submitting a certificate signing request, and having it asynchronously approved and issued.',
  fields: builtinFields('io.k8s.api.certificates.v1.CertificateSigningRequest'),
  required: builtinRequired('io.k8s.api.certificates.v1.CertificateSigningRequest'),
  subresources: {
    status: true,
    statusView: csrStatusView,
    more: { approval: { kind: 'CertificateSigningRequest', verbs: ['get', 'patch', 'update'], view: csrApprovalView } },
  },
  printerColumns: csrColumns,
  fieldSelectors: { 'metadata.name': (o) => o.metadata.name ?? '', 'spec.signerName': textLabel('spec.signerName') },
  strategy: {
    allowCreateOnUpdate: false,
    // Users cannot create pre-approved or pre-issued requests, nor name another requester.
    prepareForCreate(o, requester) {
      o.status = {};
      fillRequestor(o, requester);
    },
    validateCreate: validateCsrCreate,
    // Spec is immutable after creation (the generic store keeps the status of main writes). Through
    // a view the object already carries the stored spec, so this changes nothing there.
    prepareForUpdate(o, old) {
      if (old.spec === undefined) delete o.spec;
      else o.spec = cloneObject(old.spec);
    },
    validateUpdate: validateCsrUpdate,
  },
};
