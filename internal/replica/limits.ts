/** Limits of a replica's composition (TIGER_STYLE: every wait has a bound). */

/** How long the readiness check waits for a ReadIndex round to confirm a quorum. */
export const quorumCheckTimeoutMs = 2_000;
/** How long a SIGTERM'd replica keeps serving before it stops (Kubernetes' --shutdown-delay-duration). */
export const shutdownDelayMsDefault = 0;
/** How long a stopping leader waits to hand leadership to a follower before it just stops. */
export const leadershipHandOffMs = 2_000;
