// The bounds kube-apiserver 1.28 puts on API Priority and Fairness objects
// (pkg/apis/flowcontrol/validation and k8s.io/apiserver's shufflesharding).

/** The largest matchingPrecedence of a FlowSchema. */
export const matchingPrecedenceMax = 10000;

/** The most queues a priority level may have. */
export const queuesMax = 10 * 1000 * 1000;

/** The entropy bits shuffle sharding may take from a hash (shufflesharding.MaxHashBits). */
export const shuffleShardingHashBitsMax = 60;
