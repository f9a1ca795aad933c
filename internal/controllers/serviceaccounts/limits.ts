// Bounds of the service-account controllers (TIGER_STYLE: put a limit on everything).

/** Full resync period: every namespace checked even without events (a lost watch, a missed write). */
export const perNamespaceResyncMs = 30_000;

/** How long events gather before a pass (a burst of namespace creates is one pass, not one each). */
export const perNamespaceBatchMs = 100;
