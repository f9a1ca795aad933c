// The signing policy's fixed times (kube-controller-manager's signer.go).

/** How far before the signing time a certificate's notBefore is put (clock skew between machines). */
export const signingBackdateMs = 5 * 60_000;

/** Below this duration a certificate is short-lived: its notAfter is not moved back by the backdate (5 minutes is about 1% of 8 hours). */
export const signingShortLivedMs = 8 * 60 * 60_000;

/** The shortest duration a request's spec.expirationSeconds gets (twice the backdate). */
export const signingDurationMsMin = 10 * 60_000;

/** kube-controller-manager's --cluster-signing-duration default: one year. */
export const clusterSigningDurationMsDefault = 8760 * 60 * 60_000;
