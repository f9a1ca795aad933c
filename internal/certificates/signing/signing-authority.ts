// A certificate authority that signs CertificateSigningRequests, as kube-controller-manager's
// (pkg/controller/certificates/authority and the signer's CA provider): its certificate and key
// given as PEM (RSA or ECDSA; PKCS#1, SEC1 or PKCS#8), checked to match when loaded.
import { createPrivateKey, webcrypto, X509Certificate as NodeX509Certificate, type KeyObject } from 'node:crypto';
import { x509 } from '../x509.ts';


/** A loaded signing CA. */
export interface SigningAuthority {
  readonly certificate: x509.X509Certificate;
  /** The CA certificate as given (PEM). */
  readonly certificatePem: string;
  readonly privateKey: webcrypto.CryptoKey;
  /** The signature algorithm of what it issues (Go's choice for the key: SHA-256 RSA, or ECDSA with the curve's hash). */
  readonly signingAlgorithm: { readonly name: string; readonly hash: string };
}

/** A CA that cannot be loaded; the message says which part and why. */
export class SigningAuthorityError extends Error {}

/** The webcrypto import and signing algorithms of a node key (Go's signingParamsForKey). */
function algorithmsOf(key: KeyObject): { importAs: webcrypto.RsaHashedImportParams | webcrypto.EcKeyImportParams; sign: SigningAuthority['signingAlgorithm'] } {
  if (key.asymmetricKeyType === 'rsa') return { importAs: { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' }, sign: { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' } };
  if (key.asymmetricKeyType === 'ec') {
    const curves: Record<string, readonly [string, string]> = { prime256v1: ['P-256', 'SHA-256'], secp384r1: ['P-384', 'SHA-384'], secp521r1: ['P-521', 'SHA-512'] };
    const curve = curves[key.asymmetricKeyDetails?.namedCurve ?? ''];
    if (curve !== undefined) return { importAs: { name: 'ECDSA', namedCurve: curve[0] }, sign: { name: 'ECDSA', hash: curve[1] } };
  }
  throw new SigningAuthorityError(`the private key is not an RSA or ECDSA (P-256, P-384, P-521) key: ${key.asymmetricKeyType ?? 'unknown'} ${key.asymmetricKeyDetails?.namedCurve ?? ''}`.trim());
}

/**
 * Loads a CA from its certificate and private key (PEM). Throws SigningAuthorityError when either
 * cannot be read, the key is of a kind it cannot sign with, or the key is not the certificate's.
 */
export async function loadSigningAuthority(pair: { readonly cert: string; readonly key: string }): Promise<SigningAuthority> {
  let certificate: x509.X509Certificate;
  let nodeCertificate: NodeX509Certificate;
  try {
    certificate = new x509.X509Certificate(pair.cert);
    nodeCertificate = new NodeX509Certificate(pair.cert);
  } catch (err) {
    throw new SigningAuthorityError(`the CA certificate cannot be read: ${(err as Error).message}`);
  }
  let key: KeyObject;
  try {
    key = createPrivateKey(pair.key);
  } catch (err) {
    throw new SigningAuthorityError(`the CA private key cannot be read: ${(err as Error).message}`);
  }
  if (!nodeCertificate.checkPrivateKey(key)) throw new SigningAuthorityError('the CA private key does not match the CA certificate\'s public key');
  const { importAs, sign } = algorithmsOf(key);
  const der = key.export({ type: 'pkcs8', format: 'der' });
  const privateKey = await webcrypto.subtle.importKey('pkcs8', der, importAs, false, ['sign']);
  return { certificate, certificatePem: pair.cert, privateKey, signingAlgorithm: sign };
}
