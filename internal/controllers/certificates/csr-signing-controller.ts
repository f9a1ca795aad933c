// kube-controller-manager's csrsigning (pkg/controller/certificates/signer/signer.go): for each
// built-in signer given a CA, approved requests that have not failed and hold no certificate yet
// are checked against the signer's rule, then signed (status.certificate) or failed (a Failed
// condition, reason SignerValidationFailure), both through the status sub-resource. Requests for
// other signers, or for a built-in signer without a CA, are left alone.
import { nowTimestamp } from '../../registry/generic/object-lifecycle.ts';
import type { KObject } from '../../registry/schema/declaration.ts';
import { parseCertificateRequest } from '../../certificates/certificate-request.ts';
import { signCertificateRequest } from '../../certificates/signing/sign-request.ts';
import { signerRule, signingDurationMs } from '../../certificates/signing/signer-rules.ts';
import type { SigningAuthority } from '../../certificates/signing/signing-authority.ts';
import type { Controller, ControllerDeps } from '../controller.ts';
import { csrController } from './csr-loop.ts';
import { csrFieldManager, csrSpec, hasTrueCondition, isApproved, issuedCertificatePem, withCondition } from './csr-objects.ts';
import { csrResyncMs } from './limits.ts';

/** The controller's name, as kube-controller-manager's --controllers knows it. */
export const csrSigningName = 'csrsigning';

/** The Failed condition's reason when a signer's rule refuses a request. */
export const signerValidationFailureReason = 'SignerValidationFailure';

/** The signers that run, and their tuning. */
export interface CsrSigningOptions {
  /** The CA of each built-in signer that signs, by signer name (others are not signed). */
  readonly authorities: ReadonlyMap<string, SigningAuthority>;
  /** --cluster-signing-duration: the longest validity; spec.expirationSeconds may ask for less. */
  readonly durationMs: number;
  readonly resyncIntervalMs?: number;
  /** The clock (tests). */
  readonly now?: () => Date;
}

/**
 * What the signer writes for `csr`: the request with its certificate or its Failed condition, or
 * undefined when the request is not this controller's to sign (yet). Throws when the request
 * cannot be read or signed (kube retries those).
 */
export async function signedRequest(csr: KObject, options: CsrSigningOptions): Promise<KObject | undefined> {
  if (!isApproved(csr) || hasTrueCondition(csr, 'Failed') || issuedCertificatePem(csr) !== '') return undefined;
  const spec = csrSpec(csr);
  const authority = options.authorities.get(spec.signerName);
  const rule = signerRule(spec.signerName);
  if (authority === undefined || rule === undefined) return undefined;
  const request = parseCertificateRequest(spec.requestPem);
  const now = options.now?.() ?? new Date();
  const refusal = rule(request, spec.usages);
  if (refusal !== undefined) {
    // lastTransitionTime is the status sub-resource's to stamp, as in kube.
    return withCondition(csr, { type: 'Failed', status: 'True', reason: signerValidationFailureReason, message: refusal, lastUpdateTime: nowTimestamp(now) });
  }
  const certificate = await signCertificateRequest(authority, request, { usages: spec.usages, durationMs: signingDurationMs(options.durationMs, spec.expirationSeconds), now });
  return { ...csr, status: { ...(csr.status ?? {}), certificate: Buffer.from(certificate).toString('base64') } };
}

/** csrsigning, acting through `deps` (as service account certificate-controller). */
export function createCsrSigningController(deps: ControllerDeps, options: CsrSigningOptions): Controller {
  return csrController(deps, {
    name: csrSigningName,
    resyncMs: options.resyncIntervalMs ?? csrResyncMs,
    watch: true,
    async handle(store, csr) {
      const next = await signedRequest(csr, options);
      if (next !== undefined) await store.update(undefined, csr.metadata.name ?? '', next, { fieldManager: csrFieldManager, subresource: 'status' });
    },
  });
}
