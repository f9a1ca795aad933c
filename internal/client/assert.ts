// Invariant checks of the client library: a failure here is a bug in orch, not an operating error.

/** Throws when `condition` is false; the message names the broken invariant. */
export function assert(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(`assertion failed: ${message}`);
}
