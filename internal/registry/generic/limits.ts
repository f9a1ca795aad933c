/** Limits of the registry layer, in one place. */

/** Stored objects larger than this are rejected (the request limit is 3 MiB, HTTP layer). */
export const objectBytesMax = 1.5 * 1024 * 1024;

/** Most operations one JSON patch may have (kube-apiserver's maxJSONPatchOperations): more is a 413. */
export const jsonPatchOperationsMax = 10_000;

/**
 * What the `copy` operations of one JSON patch may add in all, in bytes of JSON (kube-apiserver's
 * JSONPatchMaxCopyBytes): copies of copies grow the object exponentially in the patch's length.
 */
export const jsonPatchCopyBytesMax = 3 * 1024 * 1024;

/** How often a patch without a resourceVersion is retried after losing a write race. */
export const patchRetriesMax = 16;

/** How long a read waits for this replica to reach a requested resourceVersion. */
export const waitForRevisionMs = 3000;

/** Largest page the store reads at once while filtering a list by selectors. */
export const listPageItemsMax = 500;

/** Most objects one deletecollection removes. */
export const deleteCollectionItemsMax = 10_000;

/** How often an idle watch gets a progress (bookmark) event. */
export const watchProgressIntervalMs = 5000;

/** Recent changes whose decoded objects one store keeps, shared by all its watchers. */
export const watchDecodedChangesMax = 64;

/** How long a component health probe (componentstatuses) may take before it reads as unhealthy. */
export const componentProbeTimeoutMs = 5000;

/** Service allocation: random free-looking candidates tried before listing what is taken. */
export const allocationRandomAttemptsMax = 8;

/** Service allocation: list-and-pick rounds after the random tries, each lost only to a concurrent claim. */
export const allocationScanAttemptsMax = 4;

/** Service allocation: tries to release one allocation that keeps changing under us. */
export const allocationReleaseAttemptsMax = 4;
