// --client-ca-file: a client certificate that verifies against the CA bundle is the user named by
// its CN, in the groups named by its O fields (kube's x509 authenticator, CommonNameUserConversion).
import type { X509Certificate } from 'node:crypto';
import { authenticated, failed, noOpinion } from '../authenticator.ts';
import type { AuthenticationRequest, RequestAuthenticator } from '../authenticator.ts';
import { ClientChainVerifier } from './verified-chain-cache.ts';

/** What the client-certificate authenticator needs. */
export interface ClientCertificateAuthenticatorOptions {
  /** The trusted CAs (--client-ca-file). */
  readonly roots: readonly X509Certificate[];
  /** The current time in milliseconds since the epoch (injected for tests). */
  readonly clock: () => number;
}

/**
 * No certificate: no opinion. A certificate that does not verify: failed (401 unless another
 * authenticator accepts the request). A verified certificate without a CN: no opinion, as kube.
 */
export function clientCertificateAuthenticator(options: ClientCertificateAuthenticatorOptions): RequestAuthenticator {
  const verifier = new ClientChainVerifier(options.roots);
  return {
    name: 'x509',
    authenticate(request: AuthenticationRequest) {
      if (request.peerCertificates.length === 0) return Promise.resolve(noOpinion);
      const verified = verifier.check(request.peerCertificates, options.clock());
      if (!verified.ok) return Promise.resolve(failed(verified.reason));
      const subject = verified.subject;
      if (subject.commonName === '') return Promise.resolve(noOpinion);
      return Promise.resolve(authenticated({ username: subject.commonName, uid: '', groups: [...subject.organizations], extra: {} }));
    },
  };
}
