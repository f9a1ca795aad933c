// Limits of the patch layer. Each bounds the work one request can make the server do.

/** Deepest nesting of maps and lists a patch, applied configuration or object may have. */
export const nestingDepthMax = 100;

/** Most `Update` managedFields entries kept per object; older ones merge into one (as Kubernetes caps them). */
export const updateManagersMax = 10;

/** Name of the entry that absorbs the oldest `Update` entries when `updateManagersMax` is exceeded. */
export const ancientChangesManager = 'ancient-changes';
