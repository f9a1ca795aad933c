/** How often the controller manager checks whether this replica leads (it then starts or stops controllers). */
export const leadershipPollMs = 200;

/** First wait before restarting a controller that threw or returned while still leader. */
export const restartBackoffMsMin = 100;

/** Longest wait between restarts of a failing controller. */
export const restartBackoffMsMax = 10_000;

/** How long stop() waits for aborted controllers to return before giving up on them. */
export const controllerStopWaitMs = 5_000;

/** Namespace controller: full resync period when no terminating namespace is waiting. */
export const namespaceResyncMs = 10_000;

/** Namespace controller: retry period while a terminating namespace still has content (e.g. finalizers). */
export const namespaceBusyResyncMs = 1_000;

/** Service allocation repair: time between passes (a leaked allocation goes after three passes that see it unheld). */
export const serviceAllocationRepairIntervalMs = 60_000;
