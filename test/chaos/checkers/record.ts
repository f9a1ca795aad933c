// Pure helpers for turning what a client call ended with into the outcome a history records.
// They look only at the stable `code` of the client library's errors (duck-typed, no import), so
// the checkers stay independent of the client.
import type { Outcome } from './history.ts';

/** The outcome of a call and, for refusals, the HTTP code that says what the server saw. */
export interface RecordedOutcome {
  readonly outcome: Outcome;
  readonly code?: number;
}

function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/**
 * Outcome of a failed write: `unknown` for an unknown outcome (and any 5xx or unrecognized error,
 * to stay conservative), `fail` with the code for a 4xx refusal, `fail` for UnavailableError
 * (the client promises such a write was never applied).
 */
export function writeOutcomeOf(error: unknown): RecordedOutcome {
  const code = errorCode(error);
  if (code === 'ORCH_CLIENT_UNAVAILABLE') return { outcome: 'fail' };
  if (code === 'ORCH_CLIENT_API_ERROR') {
    const status = (error as { status: number }).status;
    return status >= 400 && status < 500 ? { outcome: 'fail', code: status } : { outcome: 'unknown' };
  }
  return { outcome: 'unknown' };
}

/**
 * Outcome of a failed read: a 404 is a successful observation that the key is absent (`ok`,
 * record `found: false`); anything else tells nothing (`fail`, left out by the checker).
 */
export function readOutcomeOf(error: unknown): RecordedOutcome {
  if (errorCode(error) === 'ORCH_CLIENT_API_ERROR' && (error as { status: number }).status === 404) return { outcome: 'ok', code: 404 };
  return { outcome: 'fail' };
}
