/** RBAC informer: pause before listing again after a failed list or a lost watch. */
export const rbacRelistDelayMs = 500;

/** Bootstrap policy: attempts at one object when others write it concurrently (409) before giving up on it until the next round. */
export const bootstrapPolicyAttemptsMax = 5;

/** Bootstrap policy: objects reconciled at once (each is a store read and maybe a write). */
export const bootstrapPolicyConcurrency = 8;

/** Bootstrap policy: pause between rounds while the store is not ready (no quorum yet). */
export const bootstrapPolicyRetryMs = 1000;

/** Bootstrap policy: rounds before giving up (logged; the objects already written stay). */
export const bootstrapPolicyRoundsMax = 120;
