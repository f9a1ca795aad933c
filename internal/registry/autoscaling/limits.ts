// The bounds of a HorizontalPodAutoscaler's behavior, as kube-apiserver 1.28 validates them
// (pkg/apis/autoscaling/validation: MaxPeriodSeconds, MaxStabilizationWindowSeconds).

/** The longest period of a scaling policy. */
export const maxPeriodSeconds = 1800;

/** The longest stabilization window of a scaling rule. */
export const maxStabilizationWindowSeconds = 3600;
