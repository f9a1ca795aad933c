/**
 * API errors: every failure the API returns is a `Status` object with an HTTP code and a
 * machine-readable reason. Built here (below HTTP) so the registry can raise them directly.
 */

/** One field-level cause of a failure (`details.causes[]`). */
export interface StatusCause {
  readonly reason: string;
  readonly message: string;
  readonly field?: string;
}

/** The `details` of a Status: which object, which fields. */
export interface StatusDetails {
  readonly name?: string;
  readonly group?: string;
  readonly kind?: string;
  readonly uid?: string;
  readonly causes?: readonly StatusCause[];
  readonly retryAfterSeconds?: number;
}

/** The wire shape of a failure Status. */
export interface StatusObject {
  readonly kind: 'Status';
  readonly apiVersion: 'v1';
  readonly metadata: Record<string, never>;
  readonly status: 'Failure';
  readonly message: string;
  readonly reason: string;
  readonly details?: StatusDetails;
  readonly code: number;
}

/** A resource name with its group, as errors name it (`deployments.apps "x" not found`). */
export interface GroupResource {
  readonly group: string;
  readonly resource: string;
}

/** An operating error of the API: carries the HTTP code, the reason and optional details. */
export class StatusError extends Error {
  constructor(
    readonly code: number,
    readonly reason: string,
    message: string,
    readonly details?: StatusDetails,
  ) {
    super(message);
    this.name = 'StatusError';
  }

  /** The Status object sent to the client. */
  toStatus(): StatusObject {
    const base = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: this.message, reason: this.reason } as const;
    return this.details === undefined ? { ...base, code: this.code } : { ...base, details: wireDetails(this.details), code: this.code };
  }
}

/**
 * Details as Go writes them: name, group, kind and uid are omitempty (a core resource's 404 has no
 * `group`), and so are a cause's reason and field (an internal error's cause is its message alone).
 */
function wireDetails(d: StatusDetails): StatusDetails {
  const emptyCause = d.causes?.some((c) => c.reason === '' || c.field === '') === true;
  if (d.name !== '' && d.group !== '' && d.kind !== '' && d.uid !== '' && !emptyCause) return d;
  const out = Object.fromEntries(Object.entries(d).filter(([k, v]) => !(v === '' && (k === 'name' || k === 'group' || k === 'kind' || k === 'uid')))) as Record<string, unknown>;
  if (emptyCause) out.causes = d.causes?.map((c) => Object.fromEntries(Object.entries(c).filter(([k, v]) => !(v === '' && (k === 'reason' || k === 'field')))));
  return out as unknown as StatusDetails;
}

function qualified(gr: GroupResource): string {
  return gr.group === '' ? gr.resource : `${gr.resource}.${gr.group}`;
}

function details(gr: GroupResource, name: string): StatusDetails {
  return { name, group: gr.group, kind: gr.resource };
}

/** 404: the named object does not exist. */
export function notFound(gr: GroupResource, name: string): StatusError {
  return new StatusError(404, 'NotFound', `${qualified(gr)} "${name}" not found`, details(gr, name));
}

/** 409: an object with that name exists already. */
export function alreadyExists(gr: GroupResource, name: string): StatusError {
  return new StatusError(409, 'AlreadyExists', `${qualified(gr)} "${name}" already exists`, details(gr, name));
}

/** 409: a write lost an optimistic-concurrency race or a precondition failed. */
export function conflict(gr: GroupResource, name: string, why: string): StatusError {
  return new StatusError(409, 'Conflict', `Operation cannot be fulfilled on ${qualified(gr)} "${name}": ${why}`, details(gr, name));
}

/** The message of a stale-resourceVersion conflict, as clients expect it. */
export const CONFLICT_MODIFIED = 'the object has been modified; please apply your changes to the latest version and try again';

/** 422: the object failed validation; `causes` name each invalid field. */
export function invalid(kind: string, group: string, name: string, causes: readonly StatusCause[]): StatusError {
  const list = causes.map((c) => (c.field ? `${c.field}: ${c.message}` : c.message));
  const summary = list.length === 1 ? list[0] : `[${list.join(', ')}]`;
  const kindName = group === '' ? kind : `${kind}.${group}`;
  return new StatusError(422, 'Invalid', `${kindName} "${name}" is invalid: ${summary}`, { name, group, kind, causes });
}

/** 400: the request itself is malformed. */
export function badRequest(message: string, causes?: readonly StatusCause[]): StatusError {
  return new StatusError(400, 'BadRequest', message, causes === undefined ? undefined : { causes });
}

/** 410: the requested resourceVersion is older than retained history. */
export function gone(message: string): StatusError {
  return new StatusError(410, 'Expired', message);
}

/** 504: the requested resourceVersion is newer than this replica (the store's `message` says by how much); clients retry after a second. */
export function tooLargeResourceVersion(message: string): StatusError {
  return new StatusError(504, 'Timeout', message, {
    causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }],
    retryAfterSeconds: 1,
  });
}

/** Whether `err` is a StatusError with HTTP status `code` (404: the object is gone, 409: a lost race). */
export function hasStatus(err: unknown, code: number): err is StatusError {
  return err instanceof StatusError && err.code === code;
}

/** 503: the store cannot serve the request now. */
export function unavailable(message: string): StatusError {
  return new StatusError(503, 'ServiceUnavailable', message);
}

/** 500: an unexpected failure; the message is generic on purpose. */
export function internalError(message: string): StatusError {
  return new StatusError(500, 'InternalError', `Internal error occurred: ${message}`);
}
