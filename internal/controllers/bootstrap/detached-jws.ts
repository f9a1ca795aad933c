// The signature the bootstrapsigner writes into cluster-info (kube's cluster-bootstrap/token/jws
// ComputeDetachedSignature): a compact JWS, HS256, protected header `{"alg":"HS256","kid":<id>}`,
// over the kubeconfig text, with its payload part left out (`header..signature`, RFC 7515
// appendix F). A client that knows the token recomputes it and compares.
//
// The HMAC key is the token's secret alone, as kube's code has it (bootstrapsigner's getTokens
// hands ComputeDetachedSignature the secret; kubeadm join checks with DetachedTokenIsValid the
// same way). SPEC and the Kubernetes documentation say "the full token": real clients come first,
// so that `kubeadm join` with token discovery verifies what orch signs.
import { CompactSign } from 'jose';

/** The HMAC key a token signs with. */
export function signingKey(tokenSecret: string): Uint8Array {
  const key = Buffer.from(tokenSecret, 'utf8');
  // As kube pads short keys to go-jose's 32-byte minimum with zeros (HMAC pads them so anyway).
  return key.length >= 32 ? key : Buffer.concat([key, Buffer.alloc(32 - key.length)]);
}

/** The detached JWS of `content` under the token; deterministic, so equal inputs give equal strings. */
export async function detachedSignature(content: string, tokenId: string, tokenSecret: string): Promise<string> {
  const compact = await new CompactSign(Buffer.from(content, 'utf8'))
    .setProtectedHeader({ alg: 'HS256', kid: tokenId })
    .sign(signingKey(tokenSecret));
  const [header, , signature] = compact.split('.');
  if (header === undefined || signature === undefined) throw new Error('assert: a compact JWS has three parts');
  return `${header}..${signature}`;
}
