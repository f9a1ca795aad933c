/** Limits of the pod sub-resources, in one place. */

/**
 * How often an eviction re-reads and retries after losing a write race on the pod or its budget
 * (upstream's EvictionsRetry has 20 steps).
 */
export const evictionRetriesMax = 20;

/**
 * Most pods a budget's status.disruptedPods may list before evictions under it are refused
 * (upstream's MaxDisruptedPodSize): approved evictions the disruption controller has not seen yet.
 */
export const disruptedPodsMax = 2000;
