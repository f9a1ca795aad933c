// CertificateApproval (plugin/pkg/admission/certificates/approval): approving or denying a
// request, a write of certificatesigningrequests/approval, needs `approve` on the request's signer.
// The stored object's signer is the one checked: the write cannot change it, but a body may claim
// another.
import { admissionForbidden } from '../../forbidden.ts';
import type { PluginFactory } from '../../plugin.ts';
import { isAuthorizedForSignerName, isCsrRequest, signerNameOf } from './signer-authorization.ts';

/** The plugin's name as kube-apiserver registers it. */
export const certificateApprovalName = 'CertificateApproval';

/** Makes CertificateApproval (it takes no configuration). */
export const certificateApprovalPlugin: PluginFactory = (deps) => ({
  name: certificateApprovalName,
  handles: (operation) => operation === 'UPDATE',
  async validate(attributes) {
    if (!isCsrRequest(attributes, deps.apiDomain, 'approval')) return;
    const signerName = signerNameOf(attributes.oldObject);
    if (await isAuthorizedForSignerName(deps, attributes.userInfo, 'approve', signerName)) return;
    throw admissionForbidden(attributes, `user not permitted to approve requests with signerName ${JSON.stringify(signerName)}`);
  },
});
