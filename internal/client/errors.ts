// Operating errors of the client library. Each has a stable `code` so callers and checkers
// can branch on it; a bug is an `assert` throw, never one of these.

/** The Kubernetes `Status` object a server sends with an error answer. */
export interface StatusObject {
  readonly kind?: string;
  readonly apiVersion?: string;
  readonly status?: string;
  readonly message?: string;
  readonly reason?: string;
  readonly code?: number;
  readonly details?: unknown;
}

/** The server answered with an error status; `status` holds the HTTP code, `statusObject` the body. */
export class ApiError extends Error {
  readonly code = 'ORCH_CLIENT_API_ERROR';
  constructor(
    /** HTTP status code of the answer (e.g. 404, 409, 410). */
    readonly status: number,
    /** `Status.reason` (e.g. `NotFound`, `Conflict`, `Expired`), or `Unknown` when the body had none. */
    readonly reason: string,
    message: string,
    /** The decoded Status body, when there was one. */
    readonly statusObject: StatusObject | undefined,
    /** Which endpoint answered. */
    readonly endpoint: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/**
 * A write whose outcome is unknown: it may or may not have been applied (the connection broke
 * after the request was sent, a 504, or a CAS retry that then met 409). Checkers must treat the
 * operation as possibly applied, with no upper bound on when.
 */
export class UnknownOutcomeError extends Error {
  readonly code = 'ORCH_CLIENT_UNKNOWN_OUTCOME';
  constructor(message: string, options: { cause: unknown }) {
    super(message, options);
    this.name = 'UnknownOutcomeError';
  }
}

/**
 * No endpoint could serve the request within the retry budget. For a write this error promises
 * the write was never applied (every attempt failed before it could reach the store).
 */
export class UnavailableError extends Error {
  readonly code = 'ORCH_CLIENT_UNAVAILABLE';
  constructor(message: string, options: { cause: unknown }) {
    super(message, options);
    this.name = 'UnavailableError';
  }
}

/** A kubeconfig that cannot be used (missing context, cluster, user, unreadable file). */
export class KubeconfigError extends Error {
  readonly code = 'ORCH_CLIENT_KUBECONFIG';
  constructor(message: string) {
    super(message);
    this.name = 'KubeconfigError';
  }
}

/**
 * The exec credential plugin could not give a usable credential (not found, non-zero exit, bad or
 * mismatched answer). The request that needed it fails with this error; its message ends with
 * the plugin's stderr tail and, when the command was not found, the kubeconfig's installHint.
 */
export class ExecPluginError extends Error {
  readonly code = 'ORCH_CLIENT_EXEC_PLUGIN';
  constructor(message: string, options?: { cause: unknown }) {
    super(message, options);
    this.name = 'ExecPluginError';
  }
}

/** A watch stream that could not be kept alive (too many reconnection failures, or a bad document). */
export class WatchError extends Error {
  readonly code = 'ORCH_CLIENT_WATCH';
  constructor(message: string, options?: { cause: unknown }) {
    super(message, options);
    this.name = 'WatchError';
  }
}

/** Builds an ApiError from an HTTP status and a response body that may or may not be a Status. */
export function apiErrorFromResponse(status: number, bodyText: string, endpoint: string): ApiError {
  let statusObject: StatusObject | undefined;
  try {
    const parsed: unknown = JSON.parse(bodyText);
    if (parsed !== null && typeof parsed === 'object') statusObject = parsed as StatusObject;
  } catch {
    statusObject = undefined;
  }
  const reason = typeof statusObject?.reason === 'string' ? statusObject.reason : 'Unknown';
  const message = typeof statusObject?.message === 'string' ? statusObject.message : `HTTP ${status}: ${bodyText.slice(0, 200)}`;
  return new ApiError(status, reason, message, statusObject, endpoint);
}
