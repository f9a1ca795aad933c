// Whether a user may act for a signer (plugin/pkg/admission/certificates/util.go,
// IsAuthorizedForSignerName): the verb (`approve`, `sign`) on the synthetic resource `signers` of
// the certificates group, named by the signer's name, or else by `<domain>/*` so that one rule can
// cover all the signers of a domain.
import type { UserInfo } from '../../../authn/user-info.ts';
import type { Attributes } from '../../../authz/authorizer.ts';
import type { AdmissionAttributes } from '../../attributes.ts';
import type { AdmissionDeps } from '../../plugin.ts';
import { text } from '../../../registry/schema/printers.ts';

/** The group CertificateSigningRequests are served in under `apiDomain`. */
export const certificatesGroup = (apiDomain: string): string => `certificates.${apiDomain}`;

/** Whether the request is a write of `subresource` ('' for the object itself) of CertificateSigningRequests. */
export function isCsrRequest(attributes: AdmissionAttributes, apiDomain: string, subresource: string): boolean {
  const { group, resource } = attributes.resource;
  return group === certificatesGroup(apiDomain) && resource === 'certificatesigningrequests' && attributes.subresource === subresource;
}

/** The signer name of a CSR object ('' when it has none). */
export const signerNameOf = (obj: unknown): string => text(obj, 'spec.signerName');

function signerAttributes(user: UserInfo, verb: string, name: string, apiDomain: string): Attributes {
  return { user, verb, resourceRequest: true, namespace: '', apiGroup: certificatesGroup(apiDomain), apiVersion: '*', resource: 'signers', subresource: '', name, path: '' };
}

/** True when `user` may `verb` requests of `signerName`, by its exact name or its domain's wildcard. An authorizer's error counts as no. */
export async function isAuthorizedForSignerName(deps: AdmissionDeps, user: UserInfo, verb: string, signerName: string): Promise<boolean> {
  const domain = signerName.split('/')[0] ?? '';
  for (const name of [signerName, `${domain}/*`]) {
    const decision = await deps.authorizer.authorize(signerAttributes(user, verb, name, deps.apiDomain));
    if (decision.decision === 'allow') return true;
  }
  return false;
}
