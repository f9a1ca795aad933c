// CertificateSubjectRestriction (plugin/pkg/admission/certificates/subjectrestriction): the
// kube-apiserver client signer must not be asked for a certificate in system:masters, the group
// that bypasses authorization, whoever asks.
import { parseCertificateRequest } from '../../../certificates/certificate-request.ts';
import { systemMasters } from '../../../authn/user-info.ts';
import { requestPemOf } from '../../../registry/certificates/csr-fields.ts';
import { admissionForbidden } from '../../forbidden.ts';
import type { PluginFactory } from '../../plugin.ts';
import { isCsrRequest, signerNameOf } from './signer-authorization.ts';

/** The plugin's name as kube-apiserver registers it. */
export const certificateSubjectRestrictionName = 'CertificateSubjectRestriction';

/** The signer of client certificates kube-apiserver trusts. */
export const kubeApiserverClientSignerName = 'kubernetes.io/kube-apiserver-client';

/** The organizations of the request in spec.request; throws the parse error. */
function organizationsOf(obj: unknown): readonly string[] {
  return parseCertificateRequest(requestPemOf(obj)).organizations;
}

/** Makes CertificateSubjectRestriction (it takes no configuration). */
export const certificateSubjectRestrictionPlugin: PluginFactory = (deps) => ({
  name: certificateSubjectRestrictionName,
  handles: (operation) => operation === 'CREATE',
  validate(attributes) {
    if (!isCsrRequest(attributes, deps.apiDomain, '')) return Promise.resolve();
    if (signerNameOf(attributes.object) !== kubeApiserverClientSignerName) return Promise.resolve();
    let organizations: readonly string[];
    try {
      organizations = organizationsOf(attributes.object);
    } catch (err) {
      return Promise.reject(admissionForbidden(attributes, `failed to parse CSR: ${err instanceof Error ? err.message : String(err)}`));
    }
    if (!organizations.includes(systemMasters)) return Promise.resolve();
    return Promise.reject(admissionForbidden(attributes, `use of ${kubeApiserverClientSignerName} signer with ${systemMasters} group is not allowed`));
  },
});
