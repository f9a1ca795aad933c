// Bounds of the PodSecurity plugin's work (kube's defaultNamespaceMaxPodsToCheck and
// defaultNamespacePodCheckTimeout).

/** At most this many existing pods are checked when a namespace's enforce level is tightened. */
export const namespacePodsToCheckMax = 3000;

/** Checking existing pods stops after this long; the warning then says how many were checked. */
export const namespacePodCheckTimeoutMs = 1000;
