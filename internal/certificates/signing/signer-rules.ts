// What each of kube's built-in signers agrees to sign (kube-controller-manager 1.28's
// pkg/controller/certificates/signer/signer.go and the kubelet checks of
// pkg/apis/certificates/helpers.go). A refusal's message is the one kube puts in the Failed
// condition. legacy-unknown has no rule: its CA signs whatever was approved.
import type { CertificateRequest } from '../certificate-request.ts';
import { signingDurationMsMin } from './limits.ts';

/** kubernetes.io/kube-apiserver-client: client certificates for any user. */
export const kubeApiServerClientSignerName = 'kubernetes.io/kube-apiserver-client';
/** kubernetes.io/kube-apiserver-client-kubelet: kubelets' client certificates. */
export const kubeletClientSignerName = 'kubernetes.io/kube-apiserver-client-kubelet';
/** kubernetes.io/kubelet-serving: kubelets' serving certificates. */
export const kubeletServingSignerName = 'kubernetes.io/kubelet-serving';
/** kubernetes.io/legacy-unknown: certificates.k8s.io/v1beta1's default signer. */
export const legacyUnknownSignerName = 'kubernetes.io/legacy-unknown';

/** The built-in signers, in the order kube-controller-manager starts them. */
export const builtinSignerNames: readonly string[] = [kubeletServingSignerName, kubeletClientSignerName, kubeApiServerClientSignerName, legacyUnknownSignerName];

/** Checks a request for one signer: undefined when it may be signed, else why not. */
export type SignerRule = (request: CertificateRequest, usages: readonly string[]) => string | undefined;

function sameSet(usages: readonly string[], expected: readonly string[]): boolean {
  const given = new Set(usages);
  return given.size === expected.length && expected.every((u) => given.has(u));
}

/** Go's sets.String.List() printed with %v. */
function listed(usages: readonly string[]): string {
  return `[${[...usages].sort().join(' ')}]`;
}

const onlySystemNodes = (request: CertificateRequest): boolean => request.organizations.length === 1 && request.organizations[0] === 'system:nodes';
const clientUsages = ['digital signature', 'key encipherment', 'client auth'];
const clientUsagesWithoutRsa = ['digital signature', 'client auth'];
const servingUsages = ['digital signature', 'key encipherment', 'server auth'];
const servingUsagesWithoutRsa = ['digital signature', 'server auth'];

/** A kubelet's client certificate request (ValidateKubeletClientCSR). */
export const kubeletClientRule: SignerRule = (request, usages) => {
  if (!onlySystemNodes(request)) return 'subject organization is not system:nodes';
  if (request.dnsNames.length > 0) return 'DNS subjectAltNames are not allowed';
  if (request.emailAddresses.length > 0) return 'Email subjectAltNames are not allowed';
  if (request.ipAddresses.length > 0) return 'IP subjectAltNames are not allowed';
  if (request.uris.length > 0) return 'URI subjectAltNames are not allowed';
  if (!request.commonName.startsWith('system:node:')) return 'subject common name does not begin with system:node:';
  if (!sameSet(usages, clientUsages) && !sameSet(usages, clientUsagesWithoutRsa)) return `usages did not match ${listed(clientUsages)}`;
  return undefined;
};

/** A kubelet's serving certificate request (ValidateKubeletServingCSR). */
export const kubeletServingRule: SignerRule = (request, usages) => {
  if (!onlySystemNodes(request)) return 'subject organization is not system:nodes';
  if (request.dnsNames.length === 0 && request.ipAddresses.length === 0) return 'DNS or IP subjectAltName is required';
  if (request.emailAddresses.length > 0) return 'Email subjectAltNames are not allowed';
  if (request.uris.length > 0) return 'URI subjectAltNames are not allowed';
  if (!sameSet(usages, servingUsages) && !sameSet(usages, servingUsagesWithoutRsa)) return `usages did not match ${listed(servingUsages)}`;
  if (!request.commonName.startsWith('system:node:')) return 'subject common name does not begin with system:node:';
  return undefined;
};

/** A client certificate for the API server: client auth required, digital signature and key encipherment allowed. */
export const kubeApiServerClientRule: SignerRule = (_request, usages) => {
  for (const usage of usages) {
    if (usage !== 'digital signature' && usage !== 'key encipherment' && usage !== 'client auth') return `invalid usage for client certificate: ${usage}`;
  }
  if (!usages.includes('client auth')) return 'missing required usage for client certificate: client auth';
  return undefined;
};

/** legacy-unknown: nothing is checked, for v1beta1's sake. */
export const legacyUnknownRule: SignerRule = () => undefined;

/** The rule of a built-in signer, or undefined for any other signer name. */
export function signerRule(signerName: string): SignerRule | undefined {
  switch (signerName) {
    case kubeletServingSignerName: return kubeletServingRule;
    case kubeletClientSignerName: return kubeletClientRule;
    case kubeApiServerClientSignerName: return kubeApiServerClientRule;
    case legacyUnknownSignerName: return legacyUnknownRule;
    default: return undefined;
  }
}

/**
 * How long a certificate is valid: the signer's duration, or spec.expirationSeconds when shorter
 * (but at least 10 minutes), as kube's signer.duration.
 */
export function signingDurationMs(signerDurationMs: number, expirationSeconds: number | undefined): number {
  if (expirationSeconds === undefined) return signerDurationMs;
  const requestedMs = expirationSeconds * 1000;
  if (requestedMs > signerDurationMs) return signerDurationMs;
  return Math.max(requestedMs, signingDurationMsMin);
}
