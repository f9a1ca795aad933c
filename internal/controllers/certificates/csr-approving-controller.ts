// kube-controller-manager's csrapproving (pkg/controller/certificates/approver/sarapprove.go): a
// kubelet's client certificate request (signer kube-apiserver-client-kubelet, O=system:nodes,
// CN=system:node:*, no alternative names, client usages) is approved when a SubjectAccessReview
// says its requester may create certificatesigningrequests/selfnodeclient (renewal: the CN is the
// requester's own name) or certificatesigningrequests/nodeclient (bootstrap). The Approved
// condition is written through the approval sub-resource. Nothing is ever denied.
import type { Authorizer } from '../../authz/authorizer.ts';
import { accessReviewStatus, attributesFromReviewSpec, userFromReviewSpec } from '../../authz/access-review.ts';
import { parseCertificateRequest, type CertificateRequest } from '../../certificates/certificate-request.ts';
import { kubeletClientRule, kubeletClientSignerName } from '../../certificates/signing/signer-rules.ts';
import type { KObject } from '../../registry/schema/declaration.ts';
import type { Controller, ControllerDeps } from '../controller.ts';
import { csrController } from './csr-loop.ts';
import { csrFieldManager, csrPlural, csrSpec, hasCondition, issuedCertificatePem, withCondition, type CsrSpec } from './csr-objects.ts';
import { csrResyncMs } from './limits.ts';

/** The controller's name, as kube-controller-manager's --controllers knows it. */
export const csrApprovingName = 'csrapproving';

/** The Approved condition's reason. */
export const autoApprovedReason = 'AutoApproved';

/** A kind of request the approver recognizes, and the permission its requester needs. */
interface Recognizer {
  recognize(spec: CsrSpec, request: CertificateRequest): boolean;
  readonly subresource: string;
  readonly message: string;
}

const isNodeClient = (spec: CsrSpec, request: CertificateRequest): boolean => spec.signerName === kubeletClientSignerName && kubeletClientRule(request, spec.usages) === undefined;

/** In kube's order: renewal first, then bootstrap. */
const recognizers: readonly Recognizer[] = [
  {
    recognize: (spec, request) => spec.username === request.commonName && isNodeClient(spec, request),
    subresource: 'selfnodeclient',
    message: 'Auto approving self kubelet client certificate after SubjectAccessReview.',
  },
  { recognize: isNodeClient, subresource: 'nodeclient', message: 'Auto approving kubelet client certificate after SubjectAccessReview.' },
];

/** Tuning (tests shorten the resync). */
export interface CsrApprovingOptions {
  readonly resyncIntervalMs?: number;
}

/** What the approver is given to decide. */
export interface ApprovalContext {
  /** The authorizer the SubjectAccessReviews ask; absent: every review is allowed (the server authorizes nothing). */
  readonly authorizer: Authorizer | undefined;
  /** The served group of CertificateSigningRequests (`certificates.k8s.io`). */
  readonly group: string;
}

/** kube's SubjectAccessReview for the requester of `spec`: may they create certificatesigningrequests/`subresource`? */
async function reviewAllows(context: ApprovalContext, spec: CsrSpec, subresource: string): Promise<boolean> {
  if (context.authorizer === undefined) return true;
  const review = {
    user: spec.username, uid: spec.uid, groups: spec.groups, extra: spec.extra,
    resourceAttributes: { group: context.group, resource: csrPlural, verb: 'create', subresource },
  };
  return (await accessReviewStatus(context.authorizer, attributesFromReviewSpec(userFromReviewSpec(review), review))).allowed;
}

/**
 * The approver's answer for `csr`: the request with its Approved condition; `retry` when it was
 * recognized but no review allowed it (kube requeues it quietly); undefined when it is not the
 * approver's (issued, approved or denied already, or another kind). Throws on an unreadable request.
 */
export async function approvedRequest(csr: KObject, context: ApprovalContext): Promise<KObject | 'retry' | undefined> {
  if (issuedCertificatePem(csr) !== '' || hasCondition(csr, 'Approved') || hasCondition(csr, 'Denied')) return undefined;
  const spec = csrSpec(csr);
  const request = parseCertificateRequest(spec.requestPem);
  let tried = false;
  for (const recognizer of recognizers) {
    if (!recognizer.recognize(spec, request)) continue;
    tried = true;
    // No times, as kube's: the approval sub-resource stamps them.
    if (await reviewAllows(context, spec, recognizer.subresource)) return withCondition(csr, { type: 'Approved', status: 'True', reason: autoApprovedReason, message: recognizer.message });
  }
  return tried ? 'retry' : undefined;
}

/** csrapproving, acting through `deps` (as service account certificate-controller). */
export function createCsrApprovingController(deps: ControllerDeps, options: CsrApprovingOptions = {}): Controller {
  return csrController(deps, {
    name: csrApprovingName,
    resyncMs: options.resyncIntervalMs ?? csrResyncMs,
    watch: true,
    async handle(store, csr) {
      const answer = await approvedRequest(csr, { authorizer: deps.authorizer, group: store.gr.group });
      // A refused review is asked again on the next resync (kube requeues it quietly with backoff).
      if (answer !== undefined && answer !== 'retry') await store.update(undefined, csr.metadata.name ?? '', answer, { fieldManager: csrFieldManager, subresource: 'approval' });
    },
  });
}
