// CertificateSigning (plugin/pkg/admission/certificates/signing): a write of
// certificatesigningrequests/status that changes status.certificate issues a certificate, which
// needs `sign` on the request's signer; status writes that leave the certificate alone (a Failed
// condition) need nothing more.
import { field } from '../../../registry/schema/printers.ts';
import { admissionForbidden } from '../../forbidden.ts';
import type { PluginFactory } from '../../plugin.ts';
import { isAuthorizedForSignerName, isCsrRequest, signerNameOf } from './signer-authorization.ts';

/** The plugin's name as kube-apiserver registers it. */
export const certificateSigningName = 'CertificateSigning';

/** The certificate bytes as Go's reflect.DeepEqual tells them apart: absent (nil) differs from empty. */
function certificateKey(obj: unknown): string | null {
  const value = field(obj, 'status.certificate');
  return typeof value === 'string' ? Buffer.from(value, 'base64').toString('hex') : null;
}

/** Makes CertificateSigning (it takes no configuration). */
export const certificateSigningPlugin: PluginFactory = (deps) => ({
  name: certificateSigningName,
  handles: (operation) => operation === 'UPDATE',
  async validate(attributes) {
    if (!isCsrRequest(attributes, deps.apiDomain, 'status')) return;
    if (certificateKey(attributes.oldObject) === certificateKey(attributes.object)) return;
    const signerName = signerNameOf(attributes.oldObject);
    if (await isAuthorizedForSignerName(deps, attributes.userInfo, 'sign', signerName)) return;
    throw admissionForbidden(attributes, `user not permitted to sign requests with signerName ${JSON.stringify(signerName)}`);
  },
});
