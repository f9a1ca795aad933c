// The resourceVersion tables of get, list and watch as pure planners, plus the one function that
// turns a plan into storage read options. Validation follows Kubernetes' ListOptions validation so
// clients see the same 422 for the "invalid" cells (`ListOptions.meta.k8s.io "" is invalid: ...`);
// a resourceVersion that is no number, or one given with a continue token, is a 400 as there.
import { revision, type Revision, type Storage } from '../../storage/storage.ts';
import { badRequest, invalid, type StatusCause } from '../errors/status-error.ts';
import { waitForRevisionMs } from './limits.ts';

/** How a read is served, derived from resourceVersion (and match) per the API's tables. */
export type ReadPlan =
  | { readonly kind: 'most-recent' }
  | { readonly kind: 'any' }
  | { readonly kind: 'not-older-than'; readonly revision: Revision }
  | { readonly kind: 'exact'; readonly revision: Revision };

/** How a list is served: a ReadPlan, or the "continue-token Exact" cell (revision in the token). */
export type ListPlan = ReadPlan | { readonly kind: 'continue'; readonly token: string };

/**
 * How a watch starts. `initialEvents`: send the objects read by `read` as ADDED events first and
 * watch after that list's revision. Otherwise `read` only names the start: most-recent (the
 * consistent current revision), any (this replica's revision) or exact (after that revision).
 */
export interface WatchPlan {
  readonly initialEvents: boolean;
  readonly read: ReadPlan;
  /** Whether the initial events end with the `k8s.io/initial-events-end` BOOKMARK. */
  readonly initialEventsEndBookmark: boolean;
}

/** The revision a resourceVersion names, or undefined when it is not a (safe) non-negative integer. */
export function revisionOf(value: string): Revision | undefined {
  return /^\d+$/.test(value) && Number.isSafeInteger(Number(value)) ? revision(Number(value)) : undefined;
}

/** Parses a resourceVersion query value into a revision (400 when it is not a number). */
export function parseResourceVersion(value: string): Revision {
  const rev = revisionOf(value);
  if (rev === undefined) throw badRequest(`invalid resource version: "${value}"`, [{ reason: 'FieldValueInvalid', message: `Invalid value: "${value}"`, field: 'resourceVersion' }]);
  return rev;
}

/** The read plan of a get. */
export function planGet(resourceVersion: string | undefined): ReadPlan {
  if (resourceVersion === undefined || resourceVersion === '') return { kind: 'most-recent' };
  if (resourceVersion === '0') return { kind: 'any' };
  return { kind: 'not-older-than', revision: parseResourceVersion(resourceVersion) };
}

/** 422 for invalid ListOptions, as kube-apiserver's list and watch handlers answer (ValidateListOptions). */
function invalidListOptions(cause: StatusCause): never {
  throw invalid('ListOptions', 'meta.k8s.io', '', [cause]);
}

function forbidden(field: string, message: string): never {
  invalidListOptions({ reason: 'FieldValueForbidden', message: `Forbidden: ${message}`, field });
}

function unsupportedMatch(match: string, supported: readonly string[]): never {
  const values = supported.map((v) => JSON.stringify(v)).join(', ');
  invalidListOptions({ reason: 'FieldValueNotSupported', message: `Unsupported value: ${JSON.stringify(match)}: supported values: ${values}`, field: 'resourceVersionMatch' });
}

function checkListMatch(rv: string, match: string, continueToken: string): void {
  if (match === '') return;
  if (rv === '') forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden unless resourceVersion is provided');
  if (continueToken !== '') forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden when continue is provided');
  if (match !== 'Exact' && match !== 'NotOlderThan') unsupportedMatch(match, ['Exact', 'NotOlderThan', '']);
  if (match === 'Exact' && rv === '0') forbidden('resourceVersionMatch', 'resourceVersionMatch "exact" is forbidden for resourceVersion "0"');
}

/** The plan of a list, following the resourceVersion / resourceVersionMatch / limit / continue table. */
export function planList(opts: { resourceVersion?: string; resourceVersionMatch?: string; limit?: number; continue?: string }): ListPlan {
  const rv = opts.resourceVersion ?? '';
  const match = opts.resourceVersionMatch ?? '';
  const token = opts.continue ?? '';
  checkListMatch(rv, match, token);
  if (token !== '') {
    // "0" with a continue token is tolerated (older clients send it); any other version is a 400.
    if (rv !== '' && rv !== '0') throw badRequest('specifying resource version is not allowed when using continue');
    return { kind: 'continue', token };
  }
  if (match === 'Exact') return { kind: 'exact', revision: parseResourceVersion(rv) };
  if (rv === '') return { kind: 'most-recent' };
  if (rv === '0') return { kind: 'any' };
  const r = parseResourceVersion(rv);
  if (match === '' && opts.limit !== undefined && opts.limit > 0) return { kind: 'exact', revision: r };
  return { kind: 'not-older-than', revision: r };
}

/**
 * The plan of a watch. Without sendInitialEvents it is the legacy table (unset: consistent
 * initial state; "0": initial state from any revision; N: changes after N). With it,
 * resourceVersionMatch must be NotOlderThan and the version reads as in a NotOlderThan list.
 */
export function planWatch(opts: { resourceVersion?: string; resourceVersionMatch?: string; sendInitialEvents?: boolean; allowWatchBookmarks?: boolean }): WatchPlan {
  const rv = opts.resourceVersion ?? '';
  const match = opts.resourceVersionMatch ?? '';
  const send = opts.sendInitialEvents;
  if (send !== undefined && match !== 'NotOlderThan') forbidden('resourceVersionMatch', 'sendInitialEvents requires setting resourceVersionMatch to NotOlderThan');
  if (match !== '') {
    if (send === undefined) forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided');
    if (match !== 'NotOlderThan') unsupportedMatch(match, ['NotOlderThan']);
  }
  const read: ReadPlan = rv === '' ? { kind: 'most-recent' } : rv === '0' ? { kind: 'any' } : { kind: send === true ? 'not-older-than' : 'exact', revision: parseResourceVersion(rv) };
  const initialEvents = send ?? (rv === '' || rv === '0');
  return { initialEvents, read, initialEventsEndBookmark: send === true && opts.allowWatchBookmarks === true };
}

/**
 * Storage read options for a plan. Not-older-than and exact wait (briefly) for this replica to
 * reach the revision, so a follower serves what the leader just answered; past the wait the
 * store's `RevisionTooLarge` becomes a 504 "Too large resource version".
 */
export async function readOptionsFor(storage: Storage, plan: ReadPlan): Promise<{ consistency: 'linearizable' | 'local'; revision?: Revision }> {
  switch (plan.kind) {
    case 'most-recent':
      return { consistency: 'linearizable' };
    case 'any':
      return { consistency: 'local' };
    case 'not-older-than':
      await storage.waitForRevision(plan.revision, waitForRevisionMs);
      return { consistency: 'local' };
    case 'exact':
      await storage.waitForRevision(plan.revision, waitForRevisionMs);
      return { consistency: 'local', revision: plan.revision };
  }
}
