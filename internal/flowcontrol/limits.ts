// The bounds and defaults of flow control (see STYLE.md: a limit on everything, named in one place).

/** --max-requests-inflight's default (kube-apiserver's). */
export const maxRequestsInflightDefault = 400;

/** --max-mutating-requests-inflight's default (kube-apiserver's). */
export const maxMutatingRequestsInflightDefault = 200;

/**
 * How long a request may wait in a priority level's queue before a 429: kube's APF waits a quarter
 * of the request timeout (60 s), 15 s.
 */
export const requestWaitLimitMs = 15_000;

/** How long the config informer waits before listing again after a watch ended. */
export const configRelistDelayMs = 1_000;

/** How long a resource's object count (the LIST work estimate) is used before it is counted again. */
export const objectCountTtlMs = 10_000;
